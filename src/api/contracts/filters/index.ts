/**
 * Filters: the filter-rule builder's config, rule tree, validation and the parser the director runs
 * (jobs-simulations-network-map.md sections 2, 3, 5, 7). Shared by the workbench (the builder) and the
 * director (which evaluates a parsed tree in SQL), so what the builder produces the director accepts.
 */
// One module per concern; this index is the contract's public face.
export * from './config';
export * from './rule-tree';
export * from './validation';
export * from './parser';
export * from './page-filters';
export * from './saved';
