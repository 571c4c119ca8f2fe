/** The sign-in's user lookup (routes/users.ts), shared with its warm-up at start (warm-up.ts). */
export const USER_BY_EMAIL_SQL = 'select id, email, first_name, last_name, role, password_hash from users where lower(email) = lower($1)';
