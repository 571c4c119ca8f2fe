import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { requirePermission, requireUser } from '../guards';
import { badRequest, bodyFields } from '../http-errors';
import { LICENSED_FEATURES } from '../environment';
import { ActionValidationError } from '../actions/validation-error';
import { createAction, updateAction } from '../actions/form-save';
import { findActionId, loadActionForm } from '../actions/form-load';
import { isVendorVid } from '../actions/vid';
import { FormBodyError, decodeActionForm, isFormContentType, type FormFields } from '../../src/api/contracts/action-form-body';
import { FORM_LIMITS, MSG, type DimensionTree, type DimensionTreeNode, type FormDefinition, type PickerAction, type TagOption, type TagsAnswer } from '../../src/api/contracts/action-form';
import { ACTION_TYPES, ACTION_TYPE_LABELS, DIMENSION_LABELS, DIMENSION_TYPES, type ActionType, type DimensionType } from '../../src/api/contracts/vocabulary';

const WEB_REQUEST_PROFILES = [
  'Chrome 124 on Windows 10',
  'Edge 124 on Windows 11',
  'Firefox 125 on Ubuntu',
  'Safari 17 on macOS',
  'curl 8.4',
  'python-requests 2.31',
  'Googlebot 2.1',
];

/** A save body: the JSON payload, or the spec's form data (urlencoded or multipart) decoded into the same shape. */
function saveBody(req: FastifyRequest): unknown {
  if (!isFormContentType(req.headers['content-type'])) return bodyFields(req.body);
  try {
    return decodeActionForm((req.body ?? {}) as FormFields);
  } catch (e) {
    if (e instanceof FormBodyError) throw new ActionValidationError(MSG.saveFailed, { base: [e.message] });
    throw e;
  }
}

function parseId(raw: string): number {
  const id = Number(raw);
  if (!Number.isInteger(id) || id <= 0) throw badRequest(`"${raw}" is not an Action id.`);
  return id;
}

/**
 * The Add/Edit Action form (actions.md sections 2-8): its definition (types, dimension trees and
 * defaults, DNS servers, run-as profiles, limits, flags), tag options, an action picker, loading an
 * Action into the form, and saving (POST /manage_sims/actions.json, PUT /manage_sims/actions/{id}.json).
 */
export async function actionFormRoutes(app: FastifyInstance) {
  // Saves may be posted as multipart form data: its text fields become the body (no files are taken).
  await app.register(multipart, { attachFieldsToBody: 'keyValues', limits: { files: 0, fields: 2000, fieldSize: 1024 * 1024 } });

  app.get('/manage_sims/actions/form_definition.json', async (req): Promise<FormDefinition> => {
    const session = requireUser(req);
    const nodes = await app.db.query<{ id: number; type: DimensionType; parent_id: number | null; name: string; param_name: string }>(
      'select id, type, parent_id, name, param_name from dimensions order by type, position, id',
    );
    const byParent = new Map<number, DimensionTreeNode[]>();
    const all = new Map<number, DimensionTreeNode>();
    for (const n of nodes) all.set(n.id, { id: n.id, name: n.name, param_name: n.param_name, children: [] });
    for (const n of nodes) if (n.parent_id !== null) (byParent.get(n.parent_id) ?? byParent.set(n.parent_id, []).get(n.parent_id)!).push(all.get(n.id)!);
    for (const [parent, children] of byParent) {
      const p = all.get(parent);
      if (p) p.children = children;
    }
    const dimension_trees: DimensionTree[] = DIMENSION_TYPES.map((type) => {
      const root = nodes.find((n) => n.type === type && n.parent_id === null);
      return {
        type,
        label: DIMENSION_LABELS[type],
        required: true,
        tree: root ? all.get(root.id)! : { id: 0, name: DIMENSION_LABELS[type], param_name: type, children: [] },
      };
    });
    const defaults = await app.db.query<{ action_type: ActionType; dimension_type: DimensionType; dimension_id: number }>(
      'select action_type, dimension_type, dimension_id from dimension_defaults',
    );
    const dimension_defaults: FormDefinition['dimension_defaults'] = {};
    for (const d of defaults) (dimension_defaults[d.action_type] ??= {})[d.dimension_type] = d.dimension_id;
    const perms = new Set(session.user.permissions);
    return {
      action_types: ACTION_TYPES.map((value) => ({ value, label: ACTION_TYPE_LABELS[value] })),
      dimension_trees,
      dimension_defaults,
      dns_servers: await app.db.query('select id, name, address from dns_servers order by id'),
      action_user_profiles: await app.db.query('select id, friendly_name, username from action_user_profiles order by friendly_name, id'),
      web_request_profiles: WEB_REQUEST_PROFILES,
      limits: FORM_LIMITS,
      execution_plan: false,
      flags: { brt_auth: perms.has('brt_auth'), protected_theater: LICENSED_FEATURES.includes('protected_theater') },
      pcap_upload: app.hasRoute({ method: 'POST', url: '/manage_sims/upload/upload_pcap_file' }),
    };
  });

  app.get('/manage_sims/actions/get_tags.json', async (req): Promise<TagsAnswer> => {
    requireUser(req);
    const rows = await app.db.query<Omit<TagOption, 'field'>>('select id, name, class_name, tag_type, code, editable from tags order by class_name, tag_type, name');
    return { tags: rows.map((t) => ({ ...t, field: t.class_name === 'user' ? 'user_tags' : 'verodin_tags' })) };
  });

  app.get('/manage_sims/actions/picker.json', async (req): Promise<{ data: PickerAction[] }> => {
    requireUser(req);
    const rows = await app.db.query<Omit<PickerAction, 'vendor'>>('select id, vid, name, action_type from actions where not decommissioned order by name, id');
    return { data: rows.map((r) => ({ ...r, vendor: isVendorVid(r.vid) })) };
  });

  app.get<{ Params: { id: string } }>('/manage_sims/actions/:id/form.json', async (req) => {
    requireUser(req);
    return loadActionForm(app.db, await findActionId(app.db, req.params.id));
  });

  app.post('/manage_sims/actions.json', async (req, reply) => {
    const session = requirePermission(req, 'create_action_permission');
    const answer = await createAction(app.db, saveBody(req), session.user);
    return reply.status(201).send(answer);
  });

  app.put<{ Params: { id: string } }>('/manage_sims/actions/:id.json', async (req) => {
    const session = requirePermission(req, 'create_action_permission');
    return updateAction(app.db, parseId(req.params.id), saveBody(req), session.user);
  });
}
