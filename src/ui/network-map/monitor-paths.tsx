import { FAIL_COLOUR, PASS_COLOUR } from '@/api/contracts/monitors';
import { pathTitle, type MonitorOverlay } from './monitor-overlay';

/**
 * Every monitor path of the aeda overlay as text (what the map draws, for the keyboard and screen
 * readers): alert paths first, then green paths. Shared by Monitor Stats and the Network Map's aeda mode.
 */
export function MonitorPathList({ overlay }: { overlay: MonitorOverlay }) {
  const paths = [...overlay.alert_paths.map((p) => ({ p, kind: 'Alert path' as const })), ...overlay.green_paths.map((p) => ({ p, kind: 'Green path' as const }))];
  if (paths.length === 0) return <p className="text-xs text-muted">No monitor has been judged yet, so there are no paths to draw.</p>;
  return (
    <ul aria-label="Monitor paths" className="flex flex-wrap gap-x-4 gap-y-0.5 text-xs">
      {paths.map(({ p, kind }) => (
        <li key={`${kind}${p.source_zone_id}-${p.target_zone_id}`} style={{ color: kind === 'Alert path' ? FAIL_COLOUR : PASS_COLOUR }}>
          {pathTitle(kind, p)}
        </li>
      ))}
    </ul>
  );
}
