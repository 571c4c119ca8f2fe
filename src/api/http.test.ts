// @vitest-environment jsdom
import { http as mswHttp, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { API, useMswServer } from '../../tests/msw';
import { getCsrfToken, INVALID_TOKEN, setCsrfToken } from './csrf';
import { ApiError, http } from './http';

const server = useMswServer();
afterEach(() => {
  setCsrfToken(null);
  document.head.querySelectorAll('meta[name="csrf-token"]').forEach((m) => m.remove());
});

describe('request helper', () => {
  it('MON-142 sends X-Requested-With, the CSRF token and the background marker; 200 and 201 succeed', async () => {
    setCsrfToken('tok-1');
    let seen: Headers | undefined;
    server.use(
      mswHttp.post(`${API}/things`, ({ request }) => {
        seen = request.headers;
        return HttpResponse.json({ id: 1 }, { status: 201 });
      }),
    );
    await expect(http.post('/things', { a: 1 }, { background: true })).resolves.toEqual({ id: 1 });
    expect(seen?.get('x-requested-with')).toBe('XMLHttpRequest');
    expect(seen?.get('x-csrf-token')).toBe('tok-1');
    expect(seen?.get('x-background-task')).toBe('true');
    expect(seen?.get('content-type')).toBe('application/json');
  });

  it('MON-142 puts GET params in the query string, arrays with []', async () => {
    let url = '';
    server.use(
      mswHttp.get(`${API}/list`, ({ request }) => {
        url = request.url;
        return HttpResponse.json([]);
      }),
    );
    await http.get('/list', { params: { page: 0, job_ids: [1, 2], skip: undefined } });
    expect(decodeURIComponent(url)).toBe(`${API}/list?page=0&job_ids[]=1&job_ids[]=2`);
  });

  it('MON-155 MON-142 treats any other status as an error carrying the director message', async () => {
    server.use(
      mswHttp.delete(`${API}/jobs/1`, () => HttpResponse.json({ error: 'Job is running' }, { status: 422 })),
      mswHttp.put(`${API}/x`, () => HttpResponse.json({ base: ['Cannot reject'] }, { status: 400 })),
      mswHttp.get(`${API}/empty`, () => new HttpResponse(null, { status: 204 })),
    );
    await expect(http.delete('/jobs/1')).rejects.toMatchObject({ status: 422, message: 'Job is running' });
    await expect(http.put('/x')).rejects.toMatchObject({ message: 'Cannot reject' });
    await expect(http.get('/empty')).rejects.toBeInstanceOf(ApiError);
  });

  it('MON-159 uses the meta tag token, or invalid-authenticity-token when the tag is missing', () => {
    expect(getCsrfToken()).toBe(INVALID_TOKEN);
    const meta = document.createElement('meta');
    meta.name = 'csrf-token';
    meta.content = 'from-meta';
    document.head.appendChild(meta);
    expect(getCsrfToken()).toBe('from-meta');
  });
});
