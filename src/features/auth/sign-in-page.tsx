import { useForm } from 'react-hook-form';
import { useState } from 'react';
import { ApiError } from '@/api/http';
import { signIn } from '@/api/session-api';
import { signInSchema, type SignInAnswer, type SignInInput } from '@/api/contracts/session';
import { Button } from '@/ui/button';
import { Field } from '@/ui/field';
import { yupResolver } from '@/ui/yup-resolver';

/** The sign-in page; keeps what was typed when the director refuses. */
export function SignInPage({ onSignedIn }: { onSignedIn: (answer: SignInAnswer) => void }) {
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignInInput>({ resolver: yupResolver<SignInInput>(signInSchema), defaultValues: { email: '', password: '' } });

  const submit = handleSubmit(async (values) => {
    setError(null);
    try {
      onSignedIn(await signIn(values));
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'Sign-in failed. Try again.');
    }
  });

  return (
    <div className="flex min-h-full items-center justify-center bg-surface p-4">
      <form onSubmit={submit} noValidate className="w-full max-w-sm rounded-lg border border-line bg-panel p-6 shadow-xl" aria-labelledby="sign-in-title">
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
          <Field label="Email" type="email" autoComplete="username" autoFocus {...register('email')} error={errors.email?.message} />
          <Field label="Password" type="password" autoComplete="current-password" {...register('password')} error={errors.password?.message} />
          <Button type="submit" variant="primary" disabled={isSubmitting} className="mt-2 justify-center py-1.5">
            {isSubmitting ? 'Signing in…' : 'Sign in'}
          </Button>
        </div>
      </form>
    </div>
  );
}
