/**
 * Action authoring (actions.md sections 2-8): the Add/Edit Action form's payload, its yup schemas
 * (the same ones the director validates with), the form definition, the file library and the error
 * shapes. Shared by the workbench (src/features/action-form) and the director (server/routes/action-form.ts,
 * server/routes/file-library.ts).
 *
 * The JSON payload mirrors the legacy form's nesting so that server errors come back under the spec's
 * keys: common fields under `sim_action`, the type fields under `{type}_action`, `system_override.vid`,
 * `trees[i].id` (one per dimension, in DIMENSION_TYPES order) and tag lists by hidden field name.
 */
// One module per concern; this index is the contract's public face.
export * from './texts';
export * from './options';
export * from './syntax';
export * from './payload';
export * from './defaults';
export * from './schemas';
export * from './errors';
export * from './calls';
export * from './file-library';
