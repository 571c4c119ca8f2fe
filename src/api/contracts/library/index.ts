/**
 * The Action library: list, filter, detail, preview, in-place edits, approval and rejection
 * (actions.md sections 2-8; jobs-simulations-network-map.md "Library of actions or simulations").
 * Shared by the director (which validates with these schemas) and the workbench.
 */
// One module per concern; this index is the contract's public face.
export * from './options';
export * from './requests';
export * from './answers';
export * from './preview';
export * from './messages';
