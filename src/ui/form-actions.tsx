import { Button } from './button';

/**
 * A form's footer: Cancel, then the submit button (disabled while the form is busy). Forms in
 * modals and panes use it so their footers look and behave the same.
 */
export function FormActions({ submitLabel, onCancel, busy = false }: { submitLabel: string; onCancel(): void; busy?: boolean }) {
  return (
    <div className="flex justify-end gap-2">
      <Button onClick={onCancel}>Cancel</Button>
      <Button type="submit" variant="primary" disabled={busy}>
        {submitLabel}
      </Button>
    </div>
  );
}
