import * as yup from 'yup';
import { ROLES, type Permission, type Role } from './permissions';

/** Shapes of the session calls, shared by the director and the workbench. */
export interface SessionUser {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  role: Role;
  permissions: Permission[];
}

export interface SignInAnswer {
  csrf_token: string;
  user: SessionUser;
  /** The signed-in user's environment (as GET /environment.json answers it): the workbench draws without asking again. */
  environment: Environment;
}

export interface VerifySessionAnswer {
  time_left: number;
}

/**
 * GET /users/session.json: whether this browser is signed in, asked before anything that needs a
 * session (always 200, so a signed-out load logs no 401); signed in, with the environment.
 */
export type SessionStateAnswer = { signed_in: false } | { signed_in: true; environment: Environment };

export const signInSchema = yup
  .object({
    email: yup.string().trim().required('Email is required').email('Email is not a valid address'),
    password: yup.string().required('Password is required'),
  })
  .noUnknown()
  .strict();
export type SignInInput = yup.InferType<typeof signInSchema>;

export interface Environment {
  csrfToken: string;
  timeZone: string;
  utcOffset: number;
  userTimeZone: string;
  orgUuid: string;
  orgId: number;
  plannerVersion: string;
  nistControls: boolean;
  mitreMitigations: boolean;
  licensed_features: string[];
  user_rights: Permission[];
  preferences: { hide_modal_on_click: boolean; flash_notice_time: number };
  user: SessionUser;
  session_timeout_min: number;
}

/** Password lengths (OWASP ASVS 2.1.1, 2.1.2); the director also refuses common and breached passwords. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

/** A new password as the forms and the director check it (the common-password list is the director's). */
export const newPasswordField = () =>
  yup
    .string()
    .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

export const userCreateSchema = yup
  .object({
    email: yup.string().trim().required('Email is required').email('Email is not a valid address'),
    first_name: yup.string().trim().max(100).default(''),
    last_name: yup.string().trim().max(100).default(''),
    role: yup.string().oneOf([...ROLES], 'Role must be one of admin, approver, operator, viewer').required('Role is required'),
    password: newPasswordField().required('Password is required'),
  })
  .noUnknown();

export const userUpdateSchema = yup
  .object({
    role: yup.string().oneOf([...ROLES], 'Role must be one of admin, approver, operator, viewer'),
    first_name: yup.string().trim().max(100),
    last_name: yup.string().trim().max(100),
    password: newPasswordField(),
  })
  .noUnknown();

/** Changing one's own password: the current one proves it is the user. */
export const passwordChangeSchema = yup
  .object({
    current_password: yup.string().required('Current password is required').max(PASSWORD_MAX_LENGTH * 4, 'Current password is not correct'),
    password: newPasswordField().required('New password is required'),
  })
  .noUnknown();
export type PasswordChangeInput = yup.InferType<typeof passwordChangeSchema>;

export interface UserRow {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  role: Role;
  created_at: string;
}

export interface BackgroundProcessNotice {
  id: number;
  result: string;
  updated_at: string;
}

export interface BackgroundProcessesAnswer {
  failed: BackgroundProcessNotice[];
  completed: BackgroundProcessNotice[];
}

export type ContentServiceState = 'CONNECTED' | 'DISCONNECTED' | 'RECONNECTING';
export interface ContentServiceAnswer {
  content_service_state: ContentServiceState;
  content_service_last_success: string | null;
}
