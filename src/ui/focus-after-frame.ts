/**
 * Moves the focus to the element `selector` names inside `root` once the next frame has drawn an edit
 * (a row moved or removed by keyboard), unless the focus has meanwhile gone elsewhere: on a loaded machine
 * a frame can come late, after the user has moved on to another field, and taking the focus back then
 * would send their next keys (an Enter in a search box) to the wrong element.
 */
export function focusAfterFrame(root: { readonly current: HTMLElement | null }, selector: string): number {
  return requestAnimationFrame(() => {
    const container = root.current;
    const now = document.activeElement;
    if (now && now !== document.body && !container?.contains(now)) return;
    container?.querySelector<HTMLElement>(selector)?.focus();
  });
}
