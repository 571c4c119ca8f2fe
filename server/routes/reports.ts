import type { FastifyInstance } from 'fastify';
import { requireUser } from '../guards';
import { badRequest, bodyFields, validate } from '../http-errors';
import { csvFilename, exportOptionsSchema, type CsvSeparator } from '../../src/api/contracts/jobs';
import { reportTable, type ReportAnswer } from '../../src/api/contracts/report-table';
import { csvLine } from '../jobs/csv';
import { PANEL_LIBRARY } from '../../src/api/contracts/reports';
import { dashboardPatchSchema, dashboardSharesSchema, dashboardWriteSchema, dashboardNameSchema } from '../../src/api/contracts/report-requests';
import { PANEL_ANSWERS, mitreMatrix, mitreTaam, panelAnswers, results, techniqueActions, timeSeries, treeMap, untestedTechniques } from '../reports/service';
import { createDashboard, deleteDashboard, duplicateDashboard, getDashboard, listDashboards, shareDashboard, shareableUsers, updateDashboard } from '../reports/dashboards';

/**
 * Reports (issue 18; the spec leaves the chart data calls unshown, so these paths are ours, documented in
 * docs/api.md "Reports" and "Dashboards"): result data for the panels, the Panel Library, and the
 * dashboards saved per user.
 */

type Query = Record<string, unknown>;

function dashboardId(raw: string | undefined): number {
  const s = (raw ?? '').replace(/\.json$/, '');
  if (!/^\d{1,9}$/.test(s) || Number(s) < 1) throw badRequest(`Dashboard id must be a positive whole number, got "${raw ?? ''}"`);
  return Number(s);
}

export async function reportsRoutes(app: FastifyInstance) {
  // Result data (every signed-in user may read results).
  const RESULT_CALLS: Record<string, (db: typeof app.db, q: Query) => Promise<unknown>> = {
    '/reports/results.json': results,
    '/reports/time_series.json': (db, q) => timeSeries(db, q),
    '/reports/mitre_taam_data.json': mitreTaam,
    '/reports/tree_map.json': treeMap,
    '/reports/mitre_matrix.json': mitreMatrix,
    '/reports/mitre_technique.json': (db, q) => techniqueActions(db, q.id),
    '/reports/mitre_untested.json': untestedTechniques,
  };
  for (const [path, answer] of Object.entries(RESULT_CALLS)) {
    app.get(path, async (req) => {
      requireUser(req);
      return answer(app.db, req.query as Query);
    });
  }

  // Every panel of a dashboard in one call (one round trip for N panels).
  app.post('/reports/panels.json', async (req) => {
    requireUser(req);
    return panelAnswers(app.db, bodyFields(req.body));
  });

  // CSV of a result answer (POST {export source}.csv): the export options with the result call's query as props.
  const CSV_SOURCES: Record<string, (q: Query) => Promise<ReportAnswer>> = {
    results: (q) => PANEL_ANSWERS.results(app.db, q),
    time_series: (q) => PANEL_ANSWERS.series(app.db, q),
    mitre_taam_data: (q) => PANEL_ANSWERS.taam(app.db, q),
    tree_map: (q) => PANEL_ANSWERS.tree(app.db, q),
  };
  app.post<{ Params: { source: string } }>('/reports/:source', async (req, reply) => {
    requireUser(req);
    const source = req.params.source.replace(/\.csv$/, '');
    const load = req.params.source.endsWith('.csv') ? CSV_SOURCES[source] : undefined;
    if (!load) throw badRequest(`Unknown export source ${req.params.source}: use ${Object.keys(CSV_SOURCES).map((k) => `${k}.csv`).join(', ')}`);
    const opts = validate(exportOptionsSchema, bodyFields(req.body));
    const props = opts.props as Query;
    if (props === null || typeof props !== 'object' || Array.isArray(props)) throw badRequest('props must be an object');
    const table = reportTable(await load(props));
    const format = { separator: opts.separator as CsvSeparator, quotes: opts.regex as 'double' | 'single' };
    const filename = csvFilename(opts.filename, `report_${source}`);
    const text = `\uFEFF${csvLine(table.columns, format)}${table.rows.map((r) => csvLine(r, format)).join('')}`;
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename.replace(/[^\x20-\x7e]/g, '_')}"`)
      .send(text);
  });

  // The Panel Library (GET {library path}): a list of groups of panels.
  app.get('/reports/panel_library.json', async (req) => {
    requireUser(req);
    return PANEL_LIBRARY;
  });

  // Dashboards.
  app.get('/dashboards.json', async (req) => {
    const s = requireUser(req);
    return { dashboards: await listDashboards(app.db, s.user.id) };
  });
  app.get('/dashboards/share_users.json', async (req) => {
    const s = requireUser(req);
    return { users: await shareableUsers(app.db, s.user.id) };
  });
  app.post('/dashboards.json', async (req, reply) => {
    const s = requireUser(req);
    const d = await createDashboard(app.db, s.user.id, validate(dashboardWriteSchema, bodyFields(req.body)));
    return reply.code(201).send(d);
  });
  app.get<{ Params: { id: string } }>('/dashboards/:id', async (req) => {
    const s = requireUser(req);
    return getDashboard(app.db, dashboardId(req.params.id), s.user.id);
  });
  app.patch<{ Params: { id: string } }>('/dashboards/:id', async (req) => {
    const s = requireUser(req);
    return updateDashboard(app.db, dashboardId(req.params.id), s.user.id, validate(dashboardPatchSchema, bodyFields(req.body)));
  });
  app.delete<{ Params: { id: string } }>('/dashboards/:id', async (req) => {
    const s = requireUser(req);
    return deleteDashboard(app.db, dashboardId(req.params.id), s.user.id);
  });
  app.post<{ Params: { id: string } }>('/dashboards/:id/duplicate.json', async (req, reply) => {
    const s = requireUser(req);
    const body = (bodyFields(req.body ?? {}) ?? {}) as { name?: unknown };
    const name = body.name === undefined || body.name === '' ? undefined : validate(dashboardNameSchema, body.name);
    return reply.code(201).send(await duplicateDashboard(app.db, dashboardId(req.params.id), s.user.id, name));
  });
  app.put<{ Params: { id: string } }>('/dashboards/:id/shares.json', async (req) => {
    const s = requireUser(req);
    const { user_ids: ids } = validate(dashboardSharesSchema, bodyFields(req.body));
    return shareDashboard(app.db, dashboardId(req.params.id), s.user.id, ids);
  });
}
