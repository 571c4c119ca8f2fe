import { proxy } from 'valtio';

/** The dialog the users commands open; rendered once by UsersDialogs (a feature global). */
export const usersDialogs = proxy<{ reset: { id: number; email: string } | null }>({ reset: null });
