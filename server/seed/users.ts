import type { Db } from '../db/index';
import { generatePassword, hashPassword } from '../auth/passwords';
import type { Role } from '../../src/api/contracts/permissions';

export interface CreatedCredential {
  email: string;
  role: Role;
  password: string;
}

async function insertUser(db: Db, email: string, role: Role, first: string, last: string, password: string) {
  await db.query('insert into users (email, first_name, last_name, role, password_hash) values ($1, $2, $3, $4, $5)', [
    email,
    first,
    last,
    role,
    await hashPassword(password),
  ]);
}

/**
 * On an install without users, creates the administrator (ADMIN_PASSWORD, or a generated password that
 * is returned to be printed once; only its hash is stored). Returns the credentials created now.
 */
export async function ensureAdmin(db: Db, email: string, password: string | undefined): Promise<CreatedCredential[]> {
  const [{ n } = { n: 0 }] = await db.query<{ n: number }>('select count(*)::int as n from users');
  if (n > 0) return [];
  const pw = password ?? generatePassword();
  await insertUser(db, email, 'admin', 'Ada', 'Admin', pw);
  return [{ email, role: 'admin', password: pw }];
}

const DEMO_USERS: { email: string; role: Role; first: string; last: string }[] = [
  { email: 'approver@example.com', role: 'approver', first: 'Avery', last: 'Approver' },
  { email: 'operator@example.com', role: 'operator', first: 'Oscar', last: 'Operator' },
  { email: 'viewer@example.com', role: 'viewer', first: 'Vera', last: 'Viewer' },
];

/** One demo user per non-admin role; DEMO_USER_PASSWORD sets their password, else each gets a generated one. */
export async function ensureDemoUsers(db: Db, password: string | undefined): Promise<CreatedCredential[]> {
  const created: CreatedCredential[] = [];
  for (const u of DEMO_USERS) {
    const exists = await db.query('select 1 from users where email = $1', [u.email]);
    if (exists.length) continue;
    const pw = password ?? generatePassword();
    await insertUser(db, u.email, u.role, u.first, u.last, pw);
    created.push({ email: u.email, role: u.role, password: pw });
  }
  return created;
}
