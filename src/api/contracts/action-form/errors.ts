/** Error keys: the director answers `{ error, errors }` with the spec's key shapes; the form maps them back to field paths. */
// Error keys: the director answers `{ error, errors }` where errors uses the spec's key shapes.

/** Payload path -> the spec's error key: website/socket steps by index, everything else unchanged. */
export function errorKeyFor(path: string): string {
  if (path === 'system_override.vid') return 'vid';
  return path
    .replace(/^website_action\.steps\[(\d+)\]\.?/, 'web_action_steps.$1.')
    .replace(/^socket_action\.steps\[(\d+)\]\.?/, 'socket_action_steps.$1.')
    .replace(/\[(\d+)\]/g, '.$1')
    .replace(/\.$/, '');
}

/** The spec's error key -> the form's field path (the inverse of errorKeyFor). */
export function fieldPathFor(key: string): string {
  if (key === 'vid') return 'system_override.vid';
  return key
    .replace(/^web_action_steps\.(\d+)/, 'website_action.steps.$1')
    .replace(/^socket_action_steps\.(\d+)/, 'socket_action.steps.$1')
    .replace(/\[(\d+)\]/g, '.$1');
}
