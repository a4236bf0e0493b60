/**
 * A small stateful STAND-IN for the GitHub issues API on nock, for the decision logic (find by
 * fingerprint, update or comment, labels, recovery, triage) and for GitHub's failures. It keeps
 * issues, comments, labels and workflow dispatches in memory and records every request, so a
 * test asserts on what was sent and on the end state.
 *
 * Rules of GitHub it enforces, because the code under test depends on them:
 *  - label names are unique, case-insensitively: creating an existing one answers 422 with
 *    `errors: [{resource: 'Label', code: 'already_exists', field: 'name'}]`;
 *  - an issue or comment is authored by the token's login; a workflow token (the default here)
 *    cannot read GET /user (403 "Resource not accessible by integration") and writes as
 *    github-actions[bot];
 *  - comments carry author_association and created_at, issues their labels and author.
 * Failures are injected per request (`fail`): a status with GitHub's headers and body, either
 * instead of the request or after applying it (a 502 whose write went through).
 * The request shapes themselves are checked against GitHub's OpenAPI description in
 * report-prism.test.js.
 */
import nock from 'nock';

export const FAKE_API = 'http://github.fake.test';
export const ACTIONS_BOT = 'github-actions[bot]';

/**
 * @typedef {object} FakeIssue
 * @property {number} number
 * @property {string} title
 * @property {string} body
 * @property {string} state
 * @property {string[]} labels
 * @property {string} html_url
 * @property {string} [author] login; default github-actions[bot]
 */

/**
 * @typedef {object} FakeComment
 * @property {number} issue
 * @property {string} body
 * @property {string} [login] default github-actions[bot]
 * @property {string} [association] author_association; default NONE
 * @property {string} [createdAt]
 */

/**
 * @typedef {object} Injection one injected failure
 * @property {string} method
 * @property {RegExp} path matched against the path without query
 * @property {number} status
 * @property {Record<string, string>} [headers]
 * @property {any} [body]
 * @property {boolean} [afterApply] apply the request first, then answer with the failure
 * @property {() => void} [before] runs first (e.g. another job's write racing this one)
 */

/**
 * @typedef {object} FakeState
 * @property {FakeIssue[]} issues
 * @property {FakeComment[]} comments
 * @property {string[]} labels
 * @property {{workflow: string, ref: string, inputs: Record<string, string>}[]} dispatches
 * @property {{method: string, path: string, body: any, status: number}[]} requests
 */

/**
 * @param {{issues?: FakeIssue[], comments?: FakeComment[], labels?: string[], authLogin?: string|null}} [seed]
 *   authLogin: login of a token that may read GET /user (a personal or app token); default none
 * @returns {FakeState & {writes: () => FakeState['requests'], fail: (i: Injection) => void, done: () => void}}
 */
export function startFakeGitHub(seed = {}) {
  nock.disableNetConnect();
  /** @type {FakeState} */
  const state = { issues: structuredClone(seed.issues ?? []), comments: structuredClone(seed.comments ?? []), labels: [...(seed.labels ?? [])], dispatches: [], requests: [] };
  const author = seed.authLogin ?? ACTIONS_BOT;
  /** @type {Injection[]} */
  const injections = [];
  const repo = '/repos/acme/bench';
  const url = (/** @type {number} */ n) => `https://github.example/acme/bench/issues/${n}`;
  /** @param {string} uri */
  const query = (uri) => new URL(uri, FAKE_API).searchParams;
  const scope = nock(FAKE_API).persist();
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const now = () => new Date((clock += 1000)).toISOString();

  /**
   * Run one route: injected failure or the real handler, logged either way.
   * @param {string} method
   * @param {(uri: string, body: any) => [number, any]} handler
   * @returns {(uri: string, body: any) => [number, any, Record<string, string>?]}
   */
  const route = (method, handler) => (uri, body) => {
    const path = uri.split('?')[0];
    const index = injections.findIndex((i) => i.method === method && i.path.test(path));
    const injected = index >= 0 ? injections.splice(index, 1)[0] : null;
    injected?.before?.();
    /** @type {[number, any, Record<string, string>?]} */
    let answer;
    if (injected && !injected.afterApply) answer = [injected.status, injected.body ?? { message: `injected ${injected.status}` }, injected.headers ?? {}];
    else {
      answer = handler(uri, body);
      if (injected) answer = [injected.status, injected.body ?? { message: `injected ${injected.status}` }, injected.headers ?? {}];
    }
    state.requests.push({ method, path, body: body && typeof body === 'object' ? body : undefined, status: answer[0] });
    return answer;
  };

  scope.get('/user').reply(route('GET', () => (seed.authLogin ? [200, { login: seed.authLogin, id: 1 }] : [403, { message: 'Resource not accessible by integration' }])));
  scope.get(new RegExp(`^${repo}/issues\\?`)).reply(route('GET', (uri) => {
    const label = query(uri).get('labels');
    return [200, state.issues.filter((i) => !label || i.labels.includes(label)).map(toApi)];
  }));
  scope.post(`${repo}/issues`).reply(route('POST', (_uri, b) => {
    const number = state.issues.length + 1;
    const issue = { number, title: b.title, body: b.body, state: 'open', labels: b.labels ?? [], html_url: url(number), author };
    state.issues.push(issue);
    return [201, toApi(issue)];
  }));
  scope.patch(new RegExp(`^${repo}/issues/\\d+$`)).reply(route('PATCH', (uri, body) => {
    const issue = state.issues.find((i) => i.number === Number(uri.split('/').at(-1)));
    if (!issue) return [404, { message: 'Not Found' }];
    Object.assign(issue, body);
    return [200, toApi(issue)];
  }));
  scope.get(new RegExp(`^${repo}/issues/\\d+/comments`)).reply(route('GET', (uri) => {
    const n = Number(uri.split('/')[5]);
    return [200, state.comments.filter((c) => c.issue === n).map((c, i) => ({ id: i + 1, body: c.body, user: { login: c.login ?? ACTIONS_BOT }, author_association: c.association ?? 'NONE', created_at: c.createdAt ?? '2026-01-01T00:00:00Z' }))];
  }));
  scope.post(new RegExp(`^${repo}/issues/\\d+/comments$`)).reply(route('POST', (uri, body) => {
    state.comments.push({ issue: Number(uri.split('/')[5]), body: body.body, login: author, association: 'NONE', createdAt: now() });
    return [201, { id: state.comments.length, body: body.body, user: { login: author } }];
  }));
  scope.get(new RegExp(`^${repo}/labels`)).reply(route('GET', () => [200, state.labels.map((name, i) => ({ id: i + 1, name, color: 'ffffff' }))]));
  scope.post(`${repo}/labels`).reply(route('POST', (_uri, body) => {
    if (state.labels.some((l) => l.toLowerCase() === String(body.name).toLowerCase())) {
      return [422, { message: 'Validation Failed', errors: [{ resource: 'Label', code: 'already_exists', field: 'name' }], documentation_url: 'https://docs.github.com/rest/issues/labels#create-a-label' }];
    }
    state.labels.push(body.name);
    return [201, { id: state.labels.length, ...body }];
  }));
  scope.post(new RegExp(`^${repo}/actions/workflows/[^/]+/dispatches$`)).reply(route('POST', (uri, body) => {
    state.dispatches.push({ workflow: decodeURIComponent(uri.split('/')[6]), ref: body.ref, inputs: body.inputs });
    return [204, ''];
  }));

  return Object.assign(state, {
    writes: () => state.requests.filter((r) => r.method !== 'GET'),
    fail: (/** @type {Injection} */ i) => void injections.push(i),
    done: () => {
      nock.cleanAll();
      nock.enableNetConnect();
    },
  });
}

/** @param {FakeIssue} i */
function toApi(i) {
  return { number: i.number, title: i.title, body: i.body, state: i.state, html_url: i.html_url, user: { login: i.author ?? ACTIONS_BOT }, labels: i.labels.map((name) => ({ name })) };
}
