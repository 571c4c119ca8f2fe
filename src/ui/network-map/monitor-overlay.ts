/**
 * The aeda chart mode (jobs-simulations-network-map.md "Network map", "Monitor stats"): the monitor
 * results of GET /monitor/update_data drawn on the map, alert paths and green paths as edges between
 * zones (a path inside one zone marks that zone), and each zone's pass and fail counts on its box.
 */
import type { Graph } from '@antv/x6';
import { FAIL_COLOUR, PASS_COLOUR, type MonitorPath, type MonitorStatsAnswer } from '@/api/contracts/monitors';
import type { NetworkMap } from '@/api/contracts/topology';

export type MonitorOverlay = MonitorStatsAnswer['map_data'];
const PREFIX = 'aeda_';

export const pathTitle = (kind: 'Alert path' | 'Green path', p: MonitorPath) =>
  `${kind}: ${p.source_zone} → ${p.target_zone}, ${p.count} step${p.count === 1 ? '' : 's'} (${p.monitors.join(', ')})`;

/** The edge id of a path between two zones on the map, or null when it cannot be drawn as an edge. */
export function pathEdgeId(kind: 'alert' | 'green', p: MonitorPath, zones: ReadonlySet<number>): string | null {
  if (p.source_zone_id === null || p.target_zone_id === null) return null;
  if (!zones.has(p.source_zone_id) || !zones.has(p.target_zone_id) || p.source_zone_id === p.target_zone_id) return null;
  return `${PREFIX}${kind}_${p.source_zone_id}_${p.target_zone_id}`;
}

/** Replaces the drawn overlay (none when `overlay` is null): path edges, and zone boxes with their counts. */
export function drawOverlay(graph: Graph, map: NetworkMap, overlay: MonitorOverlay | null): void {
  graph.batchUpdate(() => {
    for (const e of graph.getEdges()) if (e.id.startsWith(PREFIX)) graph.removeEdge(e);
    for (const z of map.zones) {
      const cell = graph.getCellById(`zone_${z.id}`);
      if (!cell?.isNode()) continue;
      const stat = overlay?.zone_stats.find((s) => s.zone_id === z.id);
      cell.setAttrByPath('cidr/text', stat ? `${stat.passed} pass · ${stat.failed} fail` : z.cidr);
      cell.setAttrByPath('cidr/fill', stat ? (stat.failed > 0 ? FAIL_COLOUR : PASS_COLOUR) : '#94a3b8');
      cell.setAttrByPath('body/strokeDasharray', overlay && stat && stat.failed > 0 ? '6 3' : '');
    }
    if (!overlay) return;
    const zones = new Set(map.zones.map((z) => z.id));
    const draw = (kind: 'alert' | 'green', paths: MonitorPath[], colour: string) => {
      for (const p of paths) {
        const id = pathEdgeId(kind, p, zones);
        if (!id) continue;
        graph.addEdge({
          id,
          source: `zone_${p.source_zone_id}`,
          target: `zone_${p.target_zone_id}`,
          zIndex: 3,
          connector: { name: 'smooth' },
          attrs: {
            wrap: { connection: true, fill: 'none', stroke: 'transparent', strokeWidth: 12 },
            line: { connection: true, fill: 'none', stroke: colour, strokeWidth: 2 + Math.min(p.count, 6), strokeOpacity: 0.9, targetMarker: { name: 'classic', size: 8 } },
            title: { text: pathTitle(kind === 'alert' ? 'Alert path' : 'Green path', p) },
          },
          markup: [
            { tagName: 'path', selector: 'wrap' },
            { tagName: 'path', selector: 'line' },
            { tagName: 'title', selector: 'title' },
          ],
          labels: [{ attrs: { text: { text: String(p.count), fill: colour, fontSize: 12, fontWeight: 600 }, rect: { fill: '#020617' } } }],
        });
      }
    };
    draw('green', overlay.green_paths, PASS_COLOUR);
    draw('alert', overlay.alert_paths, FAIL_COLOUR);
  });
}
