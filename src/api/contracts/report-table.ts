import type { MitreTaamAnswer, ResultsAnswer, TimeSeriesAnswer, TreeMapAnswer } from './reports';

/** The figures of a result answer as a table: the PDF's tables, the CSV export (docs/api.md "Reports") and panel tables. */
export interface ReportTable {
  columns: string[];
  rows: (string | number)[][];
}

export type ReportAnswer =
  | { type: 'results'; answer: ResultsAnswer }
  | { type: 'series'; answer: TimeSeriesAnswer }
  | { type: 'taam'; answer: MitreTaamAnswer }
  | { type: 'tree'; answer: TreeMapAnswer };

export type PanelSource = ReportAnswer['type'];

/** One panel's query in POST /reports/panels.json: the call it reads and that call's query fields. */
export interface PanelRequest {
  source: PanelSource;
  query: Record<string, string | number>;
}

/** One answer of POST /reports/panels.json, in the order of the queries: the call's answer, or its refusal. */
export type PanelAnswer = ReportAnswer | { type: PanelSource; error: { status: number; message: string } };

export interface PanelsAnswer {
  answers: PanelAnswer[];
}

export function reportTable(d: ReportAnswer): ReportTable {
  switch (d.type) {
    case 'results':
      return {
        columns: ['Group', 'Total', 'Prevented', 'Detected', 'Alerts', 'Missed', 'Prevented %'],
        rows: [...d.answer.rows, d.answer.totals].map((r) => [r.label, r.total, r.prevented, r.detected, r.alerted, r.missed, `${r.preventedPct}%`]),
      };
    case 'series':
      return {
        columns: ['Start', 'Total', 'Prevented', 'Detected', 'Missed', 'Prevented %'],
        rows: d.answer.points.filter((p) => p.total > 0).map((p) => [p.start.slice(0, 16).replace('T', ' '), p.total, p.prevented, p.detected, p.missed, `${p.preventedPct}%`]),
      };
    case 'taam':
      return { columns: ['Tactic', 'Total', 'Prevented', 'Detected', 'Prevented %'], rows: d.answer.mitre_taam_data.map((t) => [t.tactic.name, t.results.total, t.results.prevented, t.results.detected, `${t.results.preventedPct}%`]) };
    case 'tree':
      return { columns: ['Name', 'Total', 'Matched'], rows: d.answer.rows.map((r) => [r.name, r.total, r.matched]) };
  }
}
