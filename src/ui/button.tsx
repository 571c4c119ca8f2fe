import type { ButtonHTMLAttributes } from 'react';

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost';
const VARIANT: Record<Variant, string> = {
  primary: 'bg-accent text-slate-950 hover:brightness-110 border-transparent font-semibold',
  secondary: 'bg-raised text-ink border-line hover:bg-line/60',
  danger: 'bg-red-600 text-white border-transparent hover:bg-red-500',
  ghost: 'bg-transparent text-ink border-transparent hover:bg-raised',
};

export function Button({ variant = 'secondary', className = '', type = 'button', ...rest }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant }) {
  return (
    <button
      type={type}
      className={`inline-flex items-center gap-1 rounded border px-2.5 py-1 text-sm disabled:cursor-not-allowed disabled:opacity-50 ${VARIANT[variant]} ${className}`}
      {...rest}
    />
  );
}
