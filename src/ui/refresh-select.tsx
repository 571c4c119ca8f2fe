const label = (s: number) => (s < 60 ? `${s} s` : `${s / 60} min`);

/** "Refresh every" with the given choices in seconds (JOB-093: polled at the given refresh interval). */
export function RefreshSelect({ choices, valueMs, onChange }: { choices: readonly number[]; valueMs: number; onChange: (seconds: number) => void }) {
  return (
    <label className="flex items-center gap-1 text-xs text-muted">
      Refresh every
      <select className="rounded border border-line bg-panel px-1 py-0.5 text-ink" value={valueMs / 1000} onChange={(e) => onChange(Number(e.target.value))}>
        {choices.map((s) => (
          <option key={s} value={s}>
            {label(s)}
          </option>
        ))}
      </select>
    </label>
  );
}
