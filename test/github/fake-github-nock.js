/**
 * A tiny stateful fake of the GitHub issues API on nock, for the decision logic (find by
 * fingerprint, update or comment, labels, recovery). It keeps issues, comments and labels in
 * memory and records every request, so a test asserts on what was sent and on the end state.
 * The request shapes themselves are checked against GitHub's OpenAPI description in
 * report-prism.test.js.
 */
import nock from 'nock';

export const FAKE_API = 'http://github.fake.test';

/**
 * @typedef {object} FakeState
 * @property {{number: number, title: string, body: string, state: string, labels: string[], html_url: string}[]} issues
 * @property {{issue: number, body: string}[]} comments
 * @property {string[]} labels
 * @property {{method: string, path: string, body: any}[]} requests
 */

/**
 * @param {{issues?: FakeState['issues'], comments?: FakeState['comments'], labels?: string[]}} [seed]
 * @returns {FakeState & {writes: () => {method: string, path: string, body: any}[], done: () => void}}
 */
export function startFakeGitHub(seed = {}) {
  nock.disableNetConnect();
  /** @type {FakeState} */
  const state = { issues: structuredClone(seed.issues ?? []), comments: structuredClone(seed.comments ?? []), labels: [...(seed.labels ?? [])], requests: [] };
  const repo = '/repos/acme/bench';
  const url = (/** @type {number} */ n) => `https://github.example/acme/bench/issues/${n}`;
  /** @param {string} uri */
  const query = (uri) => new URL(uri, FAKE_API).searchParams;
  const scope = nock(FAKE_API).persist();
  /** @param {string} method @param {string} path @param {any} body */
  const log = (method, path, body) => state.requests.push({ method, path: path.split('?')[0], body: body && typeof body === 'object' ? body : undefined });

  scope.get(new RegExp(`^${repo}/issues\\?`)).reply(function (uri) {
    log('GET', uri, null);
    const label = query(uri).get('labels');
    return [200, state.issues.filter((i) => !label || i.labels.includes(label)).map(toApi)];
  });
  scope.post(`${repo}/issues`).reply(function (uri, body) {
    log('POST', uri, body);
    const b = /** @type {any} */ (body);
    const number = state.issues.length + 1;
    const issue = { number, title: b.title, body: b.body, state: 'open', labels: b.labels ?? [], html_url: url(number) };
    state.issues.push(issue);
    return [201, toApi(issue)];
  });
  scope.patch(new RegExp(`^${repo}/issues/\\d+$`)).reply(function (uri, body) {
    log('PATCH', uri, body);
    const issue = state.issues.find((i) => i.number === Number(uri.split('/').at(-1)));
    if (!issue) return [404, { message: 'Not Found' }];
    Object.assign(issue, body);
    return [200, toApi(issue)];
  });
  scope.get(new RegExp(`^${repo}/issues/\\d+/comments`)).reply(function (uri) {
    log('GET', uri, null);
    const n = Number(uri.split('/')[5]);
    return [200, state.comments.filter((c) => c.issue === n).map((c, i) => ({ id: i + 1, body: c.body }))];
  });
  scope.post(new RegExp(`^${repo}/issues/\\d+/comments$`)).reply(function (uri, body) {
    log('POST', uri, body);
    state.comments.push({ issue: Number(uri.split('/')[5]), body: /** @type {any} */ (body).body });
    return [201, { id: state.comments.length, body: /** @type {any} */ (body).body }];
  });
  scope.get(new RegExp(`^${repo}/labels`)).reply(function (uri) {
    log('GET', uri, null);
    return [200, state.labels.map((name, i) => ({ id: i + 1, name, color: 'ffffff' }))];
  });
  scope.post(`${repo}/labels`).reply(function (uri, body) {
    log('POST', uri, body);
    state.labels.push(/** @type {any} */ (body).name);
    return [201, { id: state.labels.length, ...(/** @type {any} */ (body)) }];
  });

  return Object.assign(state, {
    writes: () => state.requests.filter((r) => r.method !== 'GET'),
    done: () => {
      nock.cleanAll();
      nock.enableNetConnect();
    },
  });
}

/** @param {FakeState['issues'][number]} i */
function toApi(i) {
  return { number: i.number, title: i.title, body: i.body, state: i.state, html_url: i.html_url, labels: i.labels.map((name) => ({ name })) };
}
