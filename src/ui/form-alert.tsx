/** A form's error from the director (or nothing), announced to screen readers. */
export function FormAlert({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <div role="alert" className="rounded border border-red-500/60 bg-red-500/10 px-3 py-2 text-sm">
      {error}
    </div>
  );
}
