import { useState, type FormEvent } from 'react';
import { ValidationError } from 'yup';
import { ApiError } from '@/api/http';
import { signIn } from '@/api/session-api';
import { signInSchema, type SignInAnswer, type SignInInput } from '@/api/contracts/session';
import { Button } from '@/ui/button';
import { Field } from '@/ui/field';

type Errors = Partial<Record<keyof SignInInput, string>>;

/** The director's own schema, checked in the page: the first message of each field. */
async function check(values: SignInInput): Promise<Errors> {
  try {
    await signInSchema.validate(values, { abortEarly: false });
    return {};
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    const errors: Errors = {};
    for (const inner of e.inner.length ? e.inner : [e]) errors[inner.path as keyof SignInInput] ??= inner.message;
    return errors;
  }
}

/**
 * The sign-in page; keeps what was typed when the director refuses. Plain React state (no form
 * library), so the first download of a signed-out visit stays small; fields are checked on submit and,
 * after a first submit, as they change.
 */
export function SignInPage({ onSignedIn }: { onSignedIn: (answer: SignInAnswer) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [values, setValues] = useState<SignInInput>({ email: '', password: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);
  const [isSubmitting, setSubmitting] = useState(false);

  const change = (name: keyof SignInInput) => (e: { target: { value: string } }) => {
    const next = { ...values, [name]: e.target.value };
    setValues(next);
    if (submitted) void check(next).then(setErrors);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    const found = await check(values);
    setErrors(found);
    if (Object.keys(found).length) {
      document.getElementById(`f-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    setError(null);
    setSubmitting(true);
    try {
      onSignedIn(await signIn(values));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Sign-in failed. Try again.');
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div className="flex min-h-full items-center justify-center bg-surface p-4">
      <form onSubmit={(e) => void submit(e)} noValidate className="w-full max-w-sm rounded-lg border border-line bg-panel p-6 shadow-xl" aria-labelledby="sign-in-title">
        <div className="mb-1 text-2xl font-semibold text-accent">Vigil</div>
        <h1 id="sign-in-title" className="mb-4 text-base text-muted">
          Sign in to the workbench
        </h1>
        {error && (
          <div role="alert" className="mb-3 rounded border border-red-500/60 bg-red-500/10 px-3 py-2 text-sm">
            {error}
          </div>
        )}
        <div className="flex flex-col gap-3">
          <Field label="Email" type="email" autoComplete="username" autoFocus name="email" value={values.email} onChange={change('email')} error={errors.email} />
          <Field label="Password" type="password" autoComplete="current-password" name="password" value={values.password} onChange={change('password')} error={errors.password} />
          <Button type="submit" variant="primary" disabled={isSubmitting} className="mt-2 justify-center py-1.5">
            {isSubmitting ? 'Signing in…' : 'Sign in'}
          </Button>
        </div>
      </form>
    </div>
  );
}
