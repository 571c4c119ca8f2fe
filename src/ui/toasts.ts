import { proxy } from 'valtio';

/** Flash messages: alert, info and notice map to error, info and success toasts (spec). */
export type ToastKind = 'error' | 'info' | 'success';
export type FlashType = 'alert' | 'info' | 'notice';

export interface Toast {
  id: number;
  kind: ToastKind;
  title?: string;
  message: string;
  /** Shown under the message, e.g. a relative time. */
  detail?: string;
  durationMs: number;
  /** A button on the toast that runs a command (e.g. Undo). */
  action?: ToastAction;
  /** When what the toast announces happens (Date.now() ms): the toast counts down to it. */
  endsAt?: number;
}

export interface ToastAction {
  commandId: string;
  label: string;
}

/** JOB-113: toasts (alert, info and notice flashes) dismiss themselves after 5 s. */
export const DEFAULT_TOAST_MS = 5000;

/**
 * MON-171 "Flash notice time default 2.5 s": the user's preferences.flash_notice_time from
 * /environment.json, set by the workbench. Two specs, two screens: JOB-113's 5 s is the toast time of
 * the jobs, simulations, network-map and integrations screens (flash); the flash notice time is how long
 * a notice (success) flash of the monitors, actors and reporting screens stays (noticeFlash). Alerts stay
 * 5 s everywhere: an error is not shortened by a preference about notices.
 */
export const DEFAULT_FLASH_NOTICE_S = 2.5;
let flashNoticeMs = DEFAULT_FLASH_NOTICE_S * 1000;
export function setFlashNoticeTime(seconds: number | null | undefined): void {
  flashNoticeMs = typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : DEFAULT_FLASH_NOTICE_S * 1000;
}
export const flashNoticeTimeMs = (): number => flashNoticeMs;

export const toastStore = proxy<{ toasts: Toast[] }>({ toasts: [] });
let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

export function dismissToast(id: number): void {
  const t = timers.get(id);
  if (t) clearTimeout(t);
  timers.delete(id);
  const i = toastStore.toasts.findIndex((x) => x.id === id);
  if (i >= 0) toastStore.toasts.splice(i, 1);
}

export function showToast(kind: ToastKind, message: string, opts: { title?: string; detail?: string; durationMs?: number; action?: ToastAction; endsAt?: number } = {}): number {
  const id = nextId++;
  const durationMs = opts.durationMs ?? DEFAULT_TOAST_MS;
  toastStore.toasts.push({
    id,
    kind,
    message,
    durationMs,
    ...(opts.title ? { title: opts.title } : {}),
    ...(opts.detail ? { detail: opts.detail } : {}),
    ...(opts.action ? { action: opts.action } : {}),
    ...(opts.endsAt ? { endsAt: opts.endsAt } : {}),
  });
  if (durationMs > 0) timers.set(id, setTimeout(() => dismissToast(id), durationMs));
  return id;
}

const FLASH_KIND: Record<FlashType, ToastKind> = { alert: 'error', info: 'info', notice: 'success' };
export function flash(type: FlashType, message: string, opts?: { title?: string; detail?: string; durationMs?: number }): number {
  return showToast(FLASH_KIND[type], message, opts);
}

/** MON-171: a notice flash of the monitors, actors and reporting screens, shown for the flash notice time. */
export function noticeFlash(message: string, opts?: { title?: string; detail?: string }): number {
  return showToast('success', message, { ...opts, durationMs: flashNoticeMs });
}

export function clearToasts(): void {
  for (const t of [...toastStore.toasts]) dismissToast(t.id);
}
