/** The form's errors: flattened to path -> message, and the summary above the steps that links each to its step. */
import { useFormState, type FieldErrors } from 'react-hook-form';
import { fieldLabel, stepOfField, type ActionFormValues, type StepNumber } from '../form-model';

/** Flattens react-hook-form errors into path -> message. */
export function flattenErrors(errors: FieldErrors, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(errors)) {
    if (!v || typeof v !== 'object' || k === 'ref') continue;
    const path = prefix ? `${prefix}.${k}` : k;
    const e = v as { message?: unknown; type?: unknown };
    if (typeof e.message === 'string' && e.message) out[path] = e.message;
    Object.assign(out, flattenErrors(v as FieldErrors, path));
  }
  return out;
}

/** The summary's lines in step order (step 1's problems first), fields within a step in form order. */
export function errorsInStepOrder(flat: Record<string, string>): { path: string; step: StepNumber; message: string }[] {
  return Object.entries(flat)
    .map(([path, message]) => ({ path, step: stepOfField(path), message }))
    .sort((a, b) => a.step - b.step);
}

export function ErrorSummary({ goTo }: { goTo(step: StepNumber): void }) {
  const { errors, submitCount } = useFormState<ActionFormValues>();
  const entries = errorsInStepOrder(flattenErrors(errors as FieldErrors));
  if (!entries.length || submitCount === 0) return null;
  return (
    <div role="alert" className="rounded border border-red-500/60 bg-red-500/10 px-3 py-2 text-sm" data-testid="error-summary">
      <div className="font-semibold">
        {entries.length} problem{entries.length === 1 ? '' : 's'} kept this Action from saving:
      </div>
      <ul className="mt-1 list-disc pl-5">
        {entries.slice(0, 12).map(({ path, step, message }) => (
          <li key={path}>
            <button type="button" className="text-left underline decoration-dotted" onClick={() => goTo(step)}>
              Step {step}: {fieldLabel(path)} {message}
            </button>
          </li>
        ))}
        {entries.length > 12 && <li>and {entries.length - 12} more</li>}
      </ul>
    </div>
  );
}
