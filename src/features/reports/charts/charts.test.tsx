import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FAIL_COLOR, PASS_COLOR, ZERO_COUNTS, withPercents, type TacticResult, type TimeSeriesAnswer } from '@/api/contracts/reports';
import { BulletChart, ForceFieldChart, GaugeChart, PieChart } from './svg-charts';
import { RadarChart } from './radar-chart';
import { TreeMapChart } from './tree-map-chart';
import { BLOCK_RATE_AXIS, blockRatePoints, fitLabel, forceFieldDomain, forceFieldMargin, mitreLink, pointsForWidth, radarPointColors, rangeLabel, squarify } from './rules';

const row = (key: string, c: Partial<typeof ZERO_COUNTS>) => {
  const counts = { ...ZERO_COUNTS, ...c };
  counts.passed = counts.total - counts.missed;
  counts.failed = counts.missed;
  counts.notPrevented = counts.total - counts.prevented;
  return withPercents(key, key.toUpperCase(), counts);
};

describe('chart rules', () => {
  it('MON-094 MON-092 block-rate points are coloured above or below the threshold on a 0..100 axis, range labelled 85%', () => {
    const series = {
      start: '2026-01-01T00:00:00.000Z',
      end: '2026-01-04T00:00:00.000Z',
      step_ms: 86_400_000,
      points: [row('a', { total: 10, prevented: 9 }), row('b', { total: 10, prevented: 8 }), row('c', {}), row('d', { total: 20, prevented: 17 })].map((r, i) => ({ ...r, start: `2026-01-0${i + 1}T00:00:00.000Z`, end: '' })),
    } satisfies TimeSeriesAnswer;
    const { values, colors } = blockRatePoints(series, 85);
    expect(values).toEqual([90, 80, null, 85]);
    expect(colors).toEqual([PASS_COLOR, FAIL_COLOR, null, PASS_COLOR]);
    expect(BLOCK_RATE_AXIS).toEqual([0, 100]);
    expect(rangeLabel(85)).toBe('85%');
    expect(PASS_COLOR).toBe('#00ffc0');
    expect(FAIL_COLOR).toBe('#d32223');
  });

  it('MON-183 force-field margin: 0.15 plus a little, capped at 0.25 when over 0.2', () => {
    expect(forceFieldMargin(7)).toBe(0.16);
    expect(forceFieldMargin(4000)).toBe(0.19);
    expect(forceFieldMargin(40000)).toBe(0.2);
    expect(forceFieldMargin(400000)).toBe(0.25);
    expect(forceFieldDomain([{ passed: 10, failed: 4 }])).toBeCloseTo(11.7);
  });

  it('MON-183 time charts group at about 120 points per unit of panel width, plus 1', () => {
    expect(pointsForWidth(1)).toBe(121);
    expect(pointsForWidth(2)).toBe(241);
    expect(pointsForWidth(0.5)).toBe(61);
  });

  it('MON-093 the radar in totals mode shows no threshold colouring; blocked mode does', () => {
    expect(new Set(radarPointColors([0, 50, 100], 'totals', 85)).size).toBe(1);
    expect(radarPointColors([0, 90], 'blocked', 85)).toEqual([FAIL_COLOR, PASS_COLOR]);
  });

  it('MON-007 the radar links to the ATT&CK view with active_tactics[], start and end', () => {
    expect(mitreLink(['TA0002'], '2026-01-01T00:00:00.000Z', '2026-01-31T00:00:00.000Z')).toBe(
      '/analyze/mitre/?active_tactics%5B%5D=TA0002&start=2026-01-01T00%3A00%3A00.000Z&end=2026-01-31T00%3A00%3A00.000Z',
    );
  });

  it('bar chart group names fit their room whole or cut with an ellipsis, never mid-word without one', () => {
    const px = (t: string) => t.length * 7;
    expect(fitLabel('DMZ', 60, px)).toBe('DMZ');
    expect(fitLabel('DMZ perimeter', 13 * 7, px)).toBe('DMZ perimeter');
    const cut = fitLabel('DMZ perimeter', 70, px);
    expect(cut).toBe('DMZ perim…');
    expect(px(cut)).toBeLessThanOrEqual(70);
    // A space before the cut is dropped, and no room at all leaves the ellipsis.
    expect(fitLabel('DMZ perimeter', 35, px)).toBe('DMZ…');
    expect(fitLabel('DMZ perimeter', 3, px)).toBe('…');
  });

  it('the tree map layout fills the box with areas in proportion', () => {
    const rects = squarify([6, 6, 4, 3, 2, 2, 1], { x: 0, y: 0, w: 6, h: 4 });
    const area = rects.reduce((s, r) => s + r.w * r.h, 0);
    expect(area).toBeCloseTo(24);
    expect(rects[0]!.w * rects[0]!.h).toBeCloseTo(6);
    expect(rects.every((r) => r.x >= 0 && r.y >= 0 && r.x + r.w <= 6.0001 && r.y + r.h <= 4.0001)).toBe(true);
  });
});

describe('chart components', () => {
  const totals = row('all', { total: 20, prevented: 10, detected: 14, alerted: 6, missed: 4 });

  it('MON-031 the bullet chart shows Prevented, Detected, Alerts and Total; its table toggle lists the figures', async () => {
    const onSelect = vi.fn();
    render(<BulletChart totals={totals} threshold={85} onSelect={onSelect} />);
    for (const s of ['Prevented', 'Detected', 'Alerts', 'Total']) expect(screen.getByText(s)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Alerts: 6 (30%)' }));
    expect(onSelect).toHaveBeenCalledWith({ metric: 'alerted' });
    await userEvent.click(screen.getByRole('button', { name: 'Show table' }));
    const table = screen.getByRole('table', { name: 'Bullet chart (table)' });
    expect(within(table).getByRole('row', { name: 'Prevented 10 50%' })).toBeTruthy();
  });

  it('MON-094 the gauge is pass-coloured at the threshold and fail-coloured below it', () => {
    const { container, rerender } = render(<GaugeChart totals={row('a', { total: 20, prevented: 17 })} mode="blocked" threshold={85} />);
    expect(container.querySelector('[data-color]')?.getAttribute('data-color')).toBe(PASS_COLOR);
    rerender(<GaugeChart totals={row('a', { total: 20, prevented: 16 })} mode="blocked" threshold={85} />);
    expect(container.querySelector('[data-color]')?.getAttribute('data-color')).toBe(FAIL_COLOR);
  });

  it('MON-031 the force field splits passed and failed per group; Enter on a segment selects it', async () => {
    const onSelect = vi.fn();
    render(<ForceFieldChart rows={[row('dns', { total: 5, missed: 2 })]} onSelect={onSelect} />);
    const failed = screen.getByRole('button', { name: 'DNS: 2 failed' });
    failed.focus();
    await userEvent.keyboard('{Enter}');
    expect(onSelect).toHaveBeenCalledWith({ key: 'dns', label: 'DNS', metric: 'failed' });
    expect(screen.getByRole('button', { name: 'DNS: 3 passed' })).toBeTruthy();
  });

  it('MON-031 the donut shows prevented, detected only and missed', () => {
    render(<PieChart totals={totals} onSelect={() => undefined} />);
    expect(screen.getByRole('button', { name: 'Prevented: 10 (50%)' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Detected only: 6 (30%)' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Missed: 4 (20%)' })).toBeTruthy();
  });

  it('MON-093 MON-007 the radar in totals mode draws every point in one colour and opens the ATT&CK view', async () => {
    const data: TacticResult[] = [
      { tactic: { id: 'TA0002', name: 'Execution' }, results: row('TA0002', { total: 10, prevented: 9 }) },
      { tactic: { id: 'TA0005', name: 'Defense Evasion' }, results: row('TA0005', { total: 10, prevented: 1 }) },
      { tactic: { id: 'TA0007', name: 'Discovery' }, results: row('TA0007', { total: 4, prevented: 0 }) },
    ];
    const onOpen = vi.fn();
    const { rerender } = render(<RadarChart data={data} mode="totals" threshold={85} start="2026-01-01T00:00:00.000Z" end={null} onOpen={onOpen} />);
    const colours = () => screen.getAllByTestId('radar-point').map((p) => p.getAttribute('data-color'));
    expect(new Set(colours()).size).toBe(1);
    expect(colours()).not.toContain(PASS_COLOR);
    await userEvent.click(screen.getByRole('button', { name: 'Execution: 10 run' }));
    expect(onOpen).toHaveBeenCalledWith('/analyze/mitre/?active_tactics%5B%5D=TA0002&start=2026-01-01T00%3A00%3A00.000Z');
    rerender(<RadarChart data={data} mode="blocked" threshold={85} start={null} end={null} onOpen={onOpen} />);
    expect(colours()).toEqual([PASS_COLOR, FAIL_COLOR, FAIL_COLOR]);
  });

  it('MON-007 a tactic with no runs leaves the centre to the others: its point takes no clicks, its label opens it', async () => {
    const data: TacticResult[] = [
      { tactic: { id: 'TA0002', name: 'Execution' }, results: row('TA0002', { total: 1, prevented: 0 }) },
      { tactic: { id: 'TA0040', name: 'Impact' }, results: row('TA0040', { total: 0, prevented: 0 }) },
    ];
    const onOpen = vi.fn();
    render(<RadarChart data={data} mode="totals" threshold={85} start={null} end={null} onOpen={onOpen} />);
    const [busy, idle] = screen.getAllByTestId('radar-point');
    expect(busy!.getAttribute('pointer-events')).toBeNull();
    expect(idle!.getAttribute('pointer-events')).toBe('none');
    await userEvent.click(screen.getByText('Impact'));
    expect(onOpen).toHaveBeenCalledWith('/analyze/mitre/?active_tactics%5B%5D=TA0040');
  });

  it('MON-053 the tree map draws one cell per row in the row colour', () => {
    render(
      <TreeMapChart
        rows={[
          { key: 'dns', name: 'DNS', total: 8, matched: 7, color: PASS_COLOR },
          { key: 'web', name: 'Web', total: 2, matched: 0, color: FAIL_COLOR },
        ]}
        onSelect={() => undefined}
      />,
    );
    expect(screen.getByRole('button', { name: 'DNS: 7 of 8' }).querySelector('rect')?.getAttribute('fill')).toBe(PASS_COLOR);
    expect(screen.getByRole('button', { name: 'Web: 0 of 2' }).querySelector('rect')?.getAttribute('fill')).toBe(FAIL_COLOR);
  });
});
