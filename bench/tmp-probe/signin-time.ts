import { ADMIN_EMAIL, ADMIN_PASSWORD, startDirector } from '../../e2e/director';
const director = await startDirector();
try {
  for (let i = 0; i < 6; i++) {
    const t0 = performance.now();
    const res = await fetch(`${director.url}/users/sign_in.json`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', accept: 'application/json' }, body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }) });
    const body = await res.text();
    console.log(res.status, (performance.now() - t0).toFixed(0), 'ms', body.length, 'bytes', res.headers.get('content-encoding'));
  }
} finally { await director.stop(); }
