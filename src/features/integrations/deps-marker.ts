/**
 * JOB-061's local marker: an actor whose dependency install was started from this browser shows
 * INSTALLING until the install call settles or the actor reports a version, across reloads (the marker
 * is kept in local storage) and in every pane (the store is shared).
 */
import { proxy } from 'valtio';

const KEY = 'vigil.dependencyInstalls';

function load(): number[] {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(raw) ? raw.filter((n): n is number => Number.isInteger(n)) : [];
  } catch {
    return [];
  }
}

/** Actor ids with a marker. */
export const depsMarkers = proxy<{ installing: number[] }>({ installing: load() });

function save() {
  try {
    localStorage.setItem(KEY, JSON.stringify(depsMarkers.installing));
  } catch {
    // Storage disabled: the marker lasts as long as the page.
  }
}

export function setInstallMarker(actorId: number) {
  if (!depsMarkers.installing.includes(actorId)) depsMarkers.installing.push(actorId);
  save();
}

export function clearInstallMarker(actorId: number) {
  depsMarkers.installing = depsMarkers.installing.filter((id) => id !== actorId);
  save();
}
