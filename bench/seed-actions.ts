import type { Db } from '../server/db/index';

/**
 * Grows the Action library to `total` Actions with clones of the demo's (template = ((id - 1) % base) + 1):
 * VIDs A5xx-xxx, names "<template> (variant N)", in one bulk statement. Returns how many were added.
 */
export async function cloneActions(db: Db, total: number): Promise<{ base: number; extra: number }> {
  const [{ n: base } = { n: 0 }] = await db.query<{ n: number }>('select count(*)::int as n from actions');
  const extra = Math.max(0, total - base);
  await db.query(
    `insert into actions (vid, name, description, orig_description, notes, action_type, version, approved, disabled, decommissioned,
                          require_protected, approve_anywhere, monitor_connections, timeout_ms, uac, details, event_filter_rules, created_at, updated_at)
     select 'A5' || lpad((g / 1000)::text, 2, '0') || '-' || lpad((g % 1000)::text, 3, '0'),
            t.name || ' (variant ' || g || ')',
            t.description || ' Variant ' || g || ' targets ' || (array['finance', 'hr', 'engineering', 'sales', 'ops'])[g % 5 + 1] || ' hosts.',
            t.description, t.notes, t.action_type, 1 + g % 4, g % 9 <> 0, false, false,
            t.require_protected, t.approve_anywhere, t.monitor_connections, t.timeout_ms, t.uac, t.details, t.event_filter_rules,
            now() - ((g % 900) * interval '1 day'), now() - ((g % 300) * interval '1 day')
       from generate_series(0, $1::int - 1) g join actions t on t.id = (g % $2::int) + 1`,
    [extra, base],
  );
  return { base, extra };
}
