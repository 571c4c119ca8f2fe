import { proxy } from 'valtio';

/** The dialog the session commands open; rendered once by AuthDialogs (a feature global). */
export const authDialogs = proxy<{ changePassword: boolean }>({ changePassword: false });
