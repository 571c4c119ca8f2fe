// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { getCsrfToken, setCsrfToken } from './csrf';
import { inlinedEnvironment, takeInlinedSession } from './session-api';

const put = (text: string) => {
  const el = document.createElement('script');
  el.id = 'vigil-session';
  el.type = 'application/json';
  el.textContent = text;
  document.head.append(el);
};

afterEach(() => {
  document.getElementById('vigil-session')?.remove();
  setCsrfToken(null);
});

describe('the session state the director inlines in its page (issue 22.1)', () => {
  it('is read once: the element is removed, so a later check asks the director', () => {
    put('{"signed_in":false}');
    expect(takeInlinedSession()).toEqual({ signed_in: false });
    expect(document.getElementById('vigil-session')).toBeNull();
    expect(takeInlinedSession()).toBeNull();
  });

  it("signed in, it is the environment and sets the session's CSRF token; escaped text reads back", () => {
    put('{"signed_in":true,"environment":{"csrfToken":"tok-9","user":{"first_name":"\\u003c/script\\u003e"}}}');
    const env = inlinedEnvironment();
    expect(env?.csrfToken).toBe('tok-9');
    expect(env?.user.first_name).toBe('</script>');
    expect(getCsrfToken()).toBe('tok-9');
  });

  it('none (the Vite dev server) or unreadable: undefined, so the shell makes the call', () => {
    expect(inlinedEnvironment()).toBeUndefined();
    put('not json');
    expect(inlinedEnvironment()).toBeUndefined();
    put('{"signed_in":true}');
    expect(inlinedEnvironment()).toBeUndefined();
  });
});
