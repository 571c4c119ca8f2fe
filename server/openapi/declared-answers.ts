/**
 * The answers of the calls whose handlers send their JSON through `reply` (pre-serialized, cached
 * bytes) or through a shared handler loop, where TypeScript cannot see what they answer and the
 * workbench makes no typed call:
 * `METHOD /path` -> the answer type. scripts/openapi-answers.ts reads this interface with the typed
 * client calls and the routes' declared answers; every other call's answer type comes from those.
 */
import type { OpenApiDescription } from './document';
import type { TreeFilterAnswer } from '../../src/api/contracts/library/answers';
import type { StepActionsAnswer } from '../../src/api/contracts/jobs';
import type { ActorOkAnswer, PollAnswer } from '../../src/api/contracts/engine';
import type { MitreTaamAnswer, ResultsAnswer, TimeSeriesAnswer, TreeMapAnswer } from '../../src/api/contracts/reports';

export interface DeclaredAnswers {
  'POST /manage_sims/library_actions_filter.json': TreeFilterAnswer;
  'GET /api/openapi.json': OpenApiDescription;
  // The workbench calls the path without .json (src/features/jobs/api.ts); both send kept bytes.
  'GET /jobs/list_page_job_actions.json': StepActionsAnswer;
  // The result calls share one handler loop (server/routes/reports.ts); the workbench reads them
  // through POST /reports/panels.json, so no typed client call names them.
  'GET /reports/results.json': ResultsAnswer;
  'GET /reports/time_series.json': TimeSeriesAnswer;
  'GET /reports/mitre_taam_data.json': MitreTaamAnswer;
  'GET /reports/tree_map.json': TreeMapAnswer;
  // The actor calls share one registration loop with the actor channel (server/routes/actors.ts).
  'POST /api/actor/heartbeat': ActorOkAnswer;
  'POST /api/actor/poll': PollAnswer;
  'POST /api/actor/work/:id/ready': ActorOkAnswer;
  'POST /api/actor/work/:id/evidence': ActorOkAnswer;
  'POST /api/actor/work/:id/result': ActorOkAnswer;
  'POST /api/actor/tasks/:id/result': ActorOkAnswer;
}
