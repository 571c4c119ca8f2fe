import * as yup from 'yup';

export interface SavedScript {
  id: number;
  name: string;
  body: string;
  shared: boolean;
  user_id: number;
  owner_email: string;
  /** The author's name (first and last), '' when the account has none. */
  owner_name: string;
  created_at: string;
  updated_at: string;
}

export interface ScriptRunRecord {
  id: number;
  script_id: number;
  user_email: string | null;
  source: 'workbench' | 'terminal';
  /** 'running' until its runner finishes it. */
  outcome: 'running' | 'ok' | 'failed' | 'stopped';
  dry_run: boolean;
  steps_total: number;
  steps_failed: number;
  started_at: string;
  finished_at: string | null;
}

export const SCRIPT_MAX_BYTES = 100_000;

export const scriptSaveSchema = yup
  .object({
    name: yup.string().trim().required('Name is required').max(120, 'Name must be at most 120 characters'),
    body: yup.string().defined('Body is required').max(SCRIPT_MAX_BYTES, `A script may be at most ${SCRIPT_MAX_BYTES} characters`),
    shared: yup.boolean().default(false),
  })
  .noUnknown();
export type ScriptSaveInput = yup.InferType<typeof scriptSaveSchema>;

const transcriptStep = yup.object({
  index: yup.number().integer().min(0).required(),
  line: yup.number().integer().min(0).required(),
  commandId: yup.string().defined().max(200),
  source: yup.string().defined().max(2000),
  status: yup.string().oneOf(['ok', 'failed', 'skipped', 'stopped']).required(),
  durationMs: yup.number().min(0).required(),
  result: yup.string().max(2000),
  error: yup.string().max(2000),
});

const runOpening = {
  source: yup.string().oneOf(['workbench', 'terminal'], 'source must be workbench or terminal').required('source is required'),
  dry_run: yup.boolean().default(false),
  started_at: yup.string().required('started_at is required').matches(/^\d{4}-\d\d-\d\dT/, 'started_at must be an ISO date-time'),
};
const runEnding = {
  outcome: yup.string().oneOf(['ok', 'failed', 'stopped'], 'outcome must be ok, failed or stopped').required('outcome is required'),
  steps: yup.array(transcriptStep).max(5000, 'A run may record at most 5000 steps').required('steps is required'),
};

/** A whole run recorded at once (its runner is the caller). */
export const scriptRunSchema = yup.object({ ...runOpening, ...runEnding }).noUnknown();
export type ScriptRunInput = yup.InferType<typeof scriptRunSchema>;

/** Opening a run before its first step: the caller is its runner, the only one who may finish it. */
export const scriptRunOpenSchema = yup.object(runOpening).noUnknown();
export type ScriptRunOpenInput = yup.InferType<typeof scriptRunOpenSchema>;

/** Finishing an open run: its outcome and transcript. */
export const scriptRunFinishSchema = yup.object(runEnding).noUnknown();
export type ScriptRunFinishInput = yup.InferType<typeof scriptRunFinishSchema>;
