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
 *  - comments carry author_association and created_at, issues their labels and author; a
 *    comment body holds at most 65,536 characters (422 "Body is too long");
 *  - check runs and commit statuses (the verdict on a commit, post-verdict.js): only a GitHub
 *    App's token may create or update a check run (a personal token: 403 "You must authenticate
 *    via a GitHub App."); a check run's output.summary and output.text hold at most 65,535 bytes
 *    of UTF-8 (422 "summary exceeds a maximum bytesize of 65535", as GitHub answers although its
 *    description says characters); a completed check run needs a conclusion; check runs and
 *    statuses are only for commits the repository has, and so is listing a commit's check runs
 *    (422 "No commit found for SHA: …", the answer GitHub gives for statuses; assumed alike for
 *    check runs); a status's description holds at most 140 characters;
 *    listing a commit's check runs filters by check_name, and by default (filter=latest) keeps
 *    only the newest run of each name.
 * The answers of the routes the verdict uses (comments, check runs, statuses) have every field
 * GitHub's OpenAPI description requires: post-verdict-prism.test.js validates them through Prism.
 * Failures are injected per request (`fail`): a status with GitHub's headers and body, either
 * instead of the request or after applying it (a 502 whose write went through).
 * The request shapes themselves are checked against GitHub's OpenAPI description in
 * report-prism.test.js.
 */
import { afterEach } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
 * @property {string} [updatedAt] when it was last edited
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
 * @property {{repo: string, event_type: string, client_payload: Record<string, unknown>}[]} repositoryDispatches
 *   POST /repos/{owner}/{repo}/dispatches, to any repository (a code repository asks the service)
 * @property {Record<string, any>} pulls pull requests of the repository by number, as GET
 *   /repos/{owner}/{repo}/pulls/{n} answers (the test seeds them, e.g. from GitHub's own example)
 * @property {{method: string, path: string, body: any, status: number}[]} requests
 * @property {Record<string, any>} environments environments of the service repository by name, as
 *   GET /repos/{owner}/{repo}/environments/{name} answers (fakeEnvironment builds one)
 * @property {Record<string, {name: string, type?: string}[]>} branchPolicies custom deployment branch policies per environment
 * @property {Record<string, any[]>} approvals deployment reviews per workflow run id (fakeApproval builds one)
 * @property {Record<string, string>} permissions a login's role on the code repository (admin, maintain, write, triage, read)
 * @property {{issue: number, name: string}[]} removedLabels labels removed from pull requests
 */

/**
 * @typedef {object} FakeCheckRun
 * @property {number} id
 * @property {string} head_sha
 * @property {string} name
 * @property {string|null} external_id
 * @property {string} status
 * @property {string|null} conclusion
 * @property {string|null} details_url
 * @property {{title: string|null, summary: string|null, text: string|null}} output
 * @property {string} started_at
 * @property {string|null} completed_at
 */

/**
 * @typedef {object} FakeStatus
 * @property {number} id
 * @property {string} sha
 * @property {string} state
 * @property {string|null} description
 * @property {string|null} target_url
 * @property {string} context
 * @property {string} created_at
 */

/**
 * @param {{issues?: FakeIssue[], comments?: FakeComment[], labels?: string[], authLogin?: string|null, commits?: string[], personalToken?: boolean, pulls?: Record<string, any>, environments?: Record<string, any>, branchPolicies?: Record<string, {name: string, type?: string}[]>, approvals?: Record<string, any[]>, permissions?: Record<string, string>}} [seed]
 *   authLogin: login of a token that may read GET /user (a personal or app token); default none.
 *   commits: the SHAs the repository has (check runs and statuses name one). personalToken: the
 *   token is a personal one, which may not create or update check runs
 * @returns {FakeState & {checkRuns: FakeCheckRun[], statuses: FakeStatus[], writes: () => FakeState['requests'], addCommit: (sha: string) => void, fail: (i: Injection) => void, allowLoopback: () => void, done: () => void}}
 */
export function startFakeGitHub(seed = {}) {
  nock.disableNetConnect();
  /** @type {FakeState & {checkRuns: FakeCheckRun[], statuses: FakeStatus[]}} */
  const state = { issues: structuredClone(seed.issues ?? []), comments: structuredClone(seed.comments ?? []), labels: [...(seed.labels ?? [])], dispatches: [], repositoryDispatches: [], pulls: structuredClone(seed.pulls ?? {}), requests: [], checkRuns: [], statuses: [],
    environments: structuredClone(seed.environments ?? {}), branchPolicies: structuredClone(seed.branchPolicies ?? {}), approvals: structuredClone(seed.approvals ?? {}), permissions: { ...(seed.permissions ?? {}) }, removedLabels: [] };
  const commits = new Set((seed.commits ?? []).map((c) => c.toLowerCase()));
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

  scope.get('/user').reply(route('GET', () => (seed.authLogin
    ? [200, { ...userApi(seed.authLogin), user_view_type: 'public', name: null, company: null, blog: null, location: null, email: null, hireable: null, bio: null, public_repos: 0, public_gists: 0, followers: 0, following: 0, created_at: '2020-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' }]
    : [403, { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest/users/users#get-the-authenticated-user' }])));
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
  // A comment's id is its place in state.comments (comments are never deleted here).
  const commentApi = (/** @type {FakeComment} */ c) => {
    const id = state.comments.indexOf(c) + 1;
    return {
      id, node_id: `IC_${id}`, body: c.body, user: userApi(c.login ?? ACTIONS_BOT), author_association: c.association ?? 'NONE',
      created_at: c.createdAt ?? '2026-01-01T00:00:00Z', updated_at: c.updatedAt ?? c.createdAt ?? '2026-01-01T00:00:00Z',
      html_url: `${url(c.issue)}#issuecomment-${id}`, issue_url: `${FAKE_API}${repo}/issues/${c.issue}`, url: `${FAKE_API}${repo}/issues/comments/${id}`,
    };
  };
  const COMMENT_MAX = 65_536;
  const tooLong = (/** @type {string} */ body) => [422, { message: 'Validation Failed', errors: [{ resource: 'IssueComment', code: 'custom', field: 'body', message: `body is too long (maximum is ${COMMENT_MAX} characters)` }], documentation_url: 'https://docs.github.com/rest/issues/comments' }, body];
  scope.get(new RegExp(`^${repo}/issues/\\d+/comments`)).reply(route('GET', (uri) => {
    const n = Number(uri.split('/')[5]);
    return [200, state.comments.filter((c) => c.issue === n).map(commentApi)];
  }));
  scope.post(new RegExp(`^${repo}/issues/\\d+/comments$`)).reply(route('POST', (uri, body) => {
    // GitHub counts characters (a character outside the BMP is one): code points here.
    if ([...String(body.body)].length > COMMENT_MAX) return /** @type {[number, any]} */ (tooLong(body.body).slice(0, 2));
    const comment = { issue: Number(uri.split('/')[5]), body: body.body, login: author, association: 'NONE', createdAt: now() };
    state.comments.push(comment);
    return [201, commentApi(comment)];
  }));
  scope.patch(new RegExp(`^${repo}/issues/comments/\\d+$`)).reply(route('PATCH', (uri, body) => {
    const comment = state.comments[Number(uri.split('/').at(-1)) - 1];
    if (!comment) return [404, { message: 'Not Found' }];
    // Only the author (or a maintainer, which these tokens are not) may edit a comment.
    if ((comment.login ?? ACTIONS_BOT) !== author) return [403, { message: 'Resource not accessible by integration' }];
    if ([...String(body.body)].length > COMMENT_MAX) return /** @type {[number, any]} */ (tooLong(body.body).slice(0, 2));
    Object.assign(comment, { body: body.body, updatedAt: now() });
    return [200, commentApi(comment)];
  }));

  // Check runs and statuses.
  const APP = { id: 15368, slug: 'github-actions', node_id: 'MDM6QXBwMTUzNjg=', owner: { id: 9919, node_id: 'MDEyOk9yZ2FuaXphdGlvbjk5MTk=', name: 'GitHub', slug: 'github', html_url: 'https://github.example/github', created_at: '2008-05-11T04:37:31Z', updated_at: '2026-01-01T00:00:00Z', avatar_url: 'https://avatars.example/u/9919' }, name: 'GitHub Actions', description: 'Automate your workflow', external_url: 'https://help.github.example/en/actions', html_url: 'https://github.example/apps/github-actions', created_at: '2018-07-30T09:30:17Z', updated_at: '2026-01-01T00:00:00Z', permissions: { checks: 'write', statuses: 'write', issues: 'write', pull_requests: 'write' }, events: [] };
  const NOT_AN_APP = [403, { message: 'You must authenticate via a GitHub App.', documentation_url: 'https://docs.github.com/rest/checks/runs#create-a-check-run' }];
  const noCommit = (/** @type {string} */ sha) => [422, { message: `No commit found for SHA: ${sha}`, documentation_url: 'https://docs.github.com/rest/checks/runs' }];
  const OUTPUT_MAX_BYTES = 65_535;
  /**
   * GitHub's rules for a check run's fields, on create and update.
   * @param {any} body
   * @param {FakeCheckRun|null} existing
   * @returns {[number, any]|null} the refusal, or null
   */
  const refuseCheckRun = (body, existing) => {
    for (const field of ['summary', 'text']) {
      const value = body.output?.[field];
      if (typeof value === 'string' && Buffer.byteLength(value, 'utf8') > OUTPUT_MAX_BYTES) {
        return [422, { message: 'Validation Failed', errors: [{ resource: 'CheckRun', code: 'custom', field, message: `${field} exceeds a maximum bytesize of ${OUTPUT_MAX_BYTES}` }], documentation_url: 'https://docs.github.com/rest/checks/runs' }];
      }
    }
    if (body.output && (typeof body.output.title !== 'string' || typeof body.output.summary !== 'string')) {
      return [422, { message: 'Invalid request.\n\n"title" and "summary" are required keys in "output".', documentation_url: 'https://docs.github.com/rest/checks/runs' }];
    }
    const status = body.status ?? existing?.status ?? 'queued';
    if (status === 'completed' && !(body.conclusion ?? existing?.conclusion)) {
      return [422, { message: 'Invalid request.\n\n"conclusion" is required when "status" is "completed".', documentation_url: 'https://docs.github.com/rest/checks/runs' }];
    }
    return null;
  };
  /** @param {any} body @param {FakeCheckRun} run */
  const applyCheckRun = (body, run) => {
    for (const key of /** @type {const} */ (['name', 'external_id', 'details_url', 'status', 'conclusion'])) if (body[key] !== undefined) run[key] = body[key];
    if (body.conclusion) run.status = 'completed';
    if (run.status === 'completed' && !run.completed_at) run.completed_at = now();
    if (body.output) run.output = { title: body.output.title ?? null, summary: body.output.summary ?? null, text: body.output.text ?? null };
  };
  const checkRunApi = (/** @type {FakeCheckRun} */ r) => ({
    ...r, node_id: `CR_${r.id}`, url: `${FAKE_API}${repo}/check-runs/${r.id}`, html_url: `https://github.example/acme/bench/runs/${r.id}`,
    output: { ...r.output, annotations_count: 0, annotations_url: `${FAKE_API}${repo}/check-runs/${r.id}/annotations` },
    check_suite: { id: 5000 + r.id }, app: APP, pull_requests: [],
  });
  scope.get(new RegExp(`^${repo}/commits/[^/]+/check-runs`)).reply(route('GET', (uri) => {
    const ref = decodeURIComponent(uri.split('?')[0].split('/')[5]).toLowerCase();
    if (!commits.has(ref)) return /** @type {[number, any]} */ (noCommit(ref));
    const q = query(uri);
    let runs = state.checkRuns.filter((r) => r.head_sha === ref && (!q.get('check_name') || r.name === q.get('check_name')));
    if ((q.get('filter') ?? 'latest') === 'latest') runs = runs.filter((r) => !runs.some((o) => o.name === r.name && o.id > r.id));
    runs = [...runs].sort((a, b) => b.id - a.id);
    return [200, { total_count: runs.length, check_runs: runs.map(checkRunApi) }];
  }));
  scope.post(`${repo}/check-runs`).reply(route('POST', (_uri, body) => {
    if (seed.personalToken) return /** @type {[number, any]} */ (NOT_AN_APP);
    const sha = String(body.head_sha ?? '').toLowerCase();
    if (!commits.has(sha)) return /** @type {[number, any]} */ (noCommit(body.head_sha));
    const refused = refuseCheckRun(body, null);
    if (refused) return refused;
    /** @type {FakeCheckRun} */
    const run = { id: 1000 + state.checkRuns.length + 1, head_sha: sha, name: body.name, external_id: null, status: 'queued', conclusion: null, details_url: null, output: { title: null, summary: null, text: null }, started_at: now(), completed_at: null };
    applyCheckRun(body, run);
    state.checkRuns.push(run);
    return [201, checkRunApi(run)];
  }));
  scope.patch(new RegExp(`^${repo}/check-runs/\\d+$`)).reply(route('PATCH', (uri, body) => {
    if (seed.personalToken) return /** @type {[number, any]} */ (NOT_AN_APP);
    const run = state.checkRuns.find((r) => r.id === Number(uri.split('/').at(-1)));
    if (!run) return [404, { message: 'Not Found' }];
    const refused = refuseCheckRun(body, run);
    if (refused) return refused;
    applyCheckRun(body, run);
    return [200, checkRunApi(run)];
  }));
  scope.post(new RegExp(`^${repo}/statuses/[^/]+$`)).reply(route('POST', (uri, body) => {
    const sha = decodeURIComponent(uri.split('/').at(-1) ?? '').toLowerCase();
    if (!commits.has(sha)) return /** @type {[number, any]} */ (noCommit(sha));
    if (!['error', 'failure', 'pending', 'success'].includes(body.state)) return [422, { message: 'Validation Failed', errors: [{ resource: 'Status', code: 'custom', field: 'state', message: 'state is not included in the list' }] }];
    if (typeof body.description === 'string' && body.description.length > 140) return [422, { message: 'Validation Failed', errors: [{ resource: 'Status', code: 'custom', field: 'description', message: 'description is too long (maximum is 140 characters)' }] }];
    /** @type {FakeStatus} */
    const status = { id: state.statuses.length + 1, sha, state: body.state, description: body.description ?? null, target_url: body.target_url ?? null, context: body.context ?? 'default', created_at: now() };
    state.statuses.push(status);
    const { sha: _sha, ...fields } = status;
    return [201, { ...fields, url: `${FAKE_API}${repo}/statuses/${sha}`, avatar_url: null, node_id: `SC_${status.id}`, updated_at: status.created_at, creator: userApi(author) }];
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

  scope.get(new RegExp(`^${repo}/pulls/\\d+$`)).reply(route('GET', (uri) => {
    const pull = state.pulls[uri.split('/').at(-1) ?? ''];
    return pull ? [200, pull] : [404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/pulls/pulls#get-a-pull-request' }];
  }));
  // GitHub's rules for a repository dispatch: an event_type of 1 to 100 characters, a
  // client_payload of at most 10 top-level properties; 204 without a body.
  scope.post(/^\/repos\/[^/]+\/[^/]+\/dispatches$/).reply(route('POST', (uri, body) => {
    const type = body?.event_type;
    if (typeof type !== 'string' || type.length === 0 || type.length > 100) return [422, { message: 'Invalid request.\n\nNo event_type was given, or it is longer than 100 characters.' }];
    if (body.client_payload && Object.keys(body.client_payload).length > 10) return [422, { message: 'Invalid request.\n\nNo more than 10 properties are allowed; client_payload has more.' }];
    state.repositoryDispatches.push({ repo: uri.split('/').slice(2, 4).join('/'), event_type: type, client_payload: body.client_payload ?? {} });
    return [204, ''];
  }));

  // Environments of any repository (the service's): GitHub answers 404 for one that does not exist
  // (a job naming it would create it, unprotected); its branch policies only when it lists names.
  const env = (/** @type {string} */ uri) => decodeURIComponent(uri.split('?')[0].split('/')[5]);
  scope.get(/^\/repos\/[^/]+\/[^/]+\/environments\/[^/]+\/deployment-branch-policies/).reply(route('GET', (uri) => {
    const e = state.environments[env(uri)];
    if (!e || e.deployment_branch_policy?.custom_branch_policies !== true) return [404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/deployments/branch-policies#list-deployment-branch-policies' }];
    const list = state.branchPolicies[env(uri)] ?? [];
    return [200, { total_count: list.length, branch_policies: list.map((p, i) => ({ id: i + 1, node_id: `DBP_${i + 1}`, name: p.name, type: p.type ?? 'branch' })) }];
  }));
  scope.get(/^\/repos\/[^/]+\/[^/]+\/environments\/[^/?]+$/).reply(route('GET', (uri) => {
    const e = state.environments[env(uri)];
    return e ? [200, e] : [404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/deployments/environments#get-an-environment' }];
  }));
  // A run's deployment reviews: [] while none was given; 404 for a run the repository lacks.
  scope.get(/^\/repos\/[^/]+\/[^/]+\/actions\/runs\/\d+\/approvals$/).reply(route('GET', (uri) => {
    const list = state.approvals[uri.split('/')[6]];
    return list ? [200, list] : [404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/actions/workflow-runs#get-the-review-history-for-a-workflow-run' }];
  }));
  // Removing a label: 200 with the labels left; 404 "Label does not exist" when the issue lacks it.
  scope.delete(new RegExp(`^${repo}/issues/\\d+/labels/[^/]+$`)).reply(route('DELETE', (uri) => {
    const parts = uri.split('/');
    const number = Number(parts[5]);
    const name = decodeURIComponent(parts[7]);
    const pull = state.pulls[String(number)];
    const labels = pull?.labels ?? [];
    if (!labels.some((/** @type {{name: string}} */ l) => l.name === name)) return [404, { message: 'Label does not exist', documentation_url: 'https://docs.github.com/rest/issues/labels#remove-a-label-from-an-issue' }];
    pull.labels = labels.filter((/** @type {{name: string}} */ l) => l.name !== name);
    state.removedLabels.push({ issue: number, name });
    return [200, pull.labels];
  }));
  // A user's permission on the repository: GitHub answers the role (permissions seeds it: admin,
  // maintain, write, triage, read) in role_name, and in permission the legacy level it maps to:
  // maintain reads as write and triage as read, so a triager never passes a write check.
  scope.get(new RegExp(`^${repo}/collaborators/[^/]+/permission$`)).reply(route('GET', (uri) => {
    const login = decodeURIComponent(uri.split('/')[5]);
    const role = state.permissions[login] ?? 'none';
    const permission = /** @type {Record<string, string>} */ ({ admin: 'admin', maintain: 'write', write: 'write', triage: 'read', read: 'read' })[role] ?? 'none';
    return [200, { permission, role_name: role, user: { ...userApi(login), role_name: role } }];
  }));

  return Object.assign(state, {
    writes: () => state.requests.filter((r) => r.method !== 'GET'),
    // A commit pushed after the fake started (check runs and statuses may then name it).
    addCommit: (/** @type {string} */ sha) => void commits.add(sha.toLowerCase()),
    fail: (/** @type {Injection} */ i) => void injections.push(i),
    // For a client that reaches the fake through a local server (Prism, fake-github-server.js).
    allowLoopback: () => nock.enableNetConnect((host) => host.startsWith('127.0.0.1')),
    done: () => {
      nock.cleanAll();
      nock.enableNetConnect();
    },
  });
}

/**
 * One fake per test and temporary folders, both gone after each test of the file.
 * @returns {{start: (seed?: Parameters<typeof startFakeGitHub>[0]) => ReturnType<typeof startFakeGitHub>, tempDir: (prefix: string) => Promise<string>}}
 */
export function useFakeGitHubPerTest() {
  /** @type {ReturnType<typeof startFakeGitHub>|null} */
  let fake = null;
  /** @type {string[]} */
  const temps = [];
  afterEach(async () => {
    fake?.done();
    fake = null;
    await Promise.all(temps.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });
  return {
    start: (seed) => (fake = startFakeGitHub(seed)),
    tempDir: async (prefix) => {
      const dir = await mkdtemp(join(tmpdir(), prefix));
      temps.push(dir);
      return dir;
    },
  };
}

/** @param {FakeIssue} i */
function toApi(i) {
  return { number: i.number, title: i.title, body: i.body, state: i.state, html_url: i.html_url, user: { login: i.author ?? ACTIONS_BOT }, labels: i.labels.map((name) => ({ name })) };
}

/**
 * A user as GitHub's answers name one (simple-user: every field its description requires).
 * @param {string} login
 */
function userApi(login) {
  const id = [...login].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) % 1_000_000, 7);
  const home = `https://github.example/${encodeURIComponent(login)}`;
  const api = `${FAKE_API}/users/${encodeURIComponent(login)}`;
  return {
    login, id, node_id: `U_${id}`, avatar_url: `https://avatars.example/u/${id}`, gravatar_id: '', url: api, html_url: home,
    followers_url: `${api}/followers`, following_url: `${api}/following{/other_user}`, gists_url: `${api}/gists{/gist_id}`, starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`, organizations_url: `${api}/orgs`, repos_url: `${api}/repos`, events_url: `${api}/events{/privacy}`, received_events_url: `${api}/received_events`,
    type: login.endsWith('[bot]') ? 'Bot' : 'User', site_admin: false,
  };
}

/**
 * An environment as GitHub's API answers for it, protected as tagbench requires unless told otherwise.
 * @param {string} name
 * @param {{reviewers?: string[], preventSelfReview?: boolean, adminsBypass?: boolean, branchPolicy?: {protected_branches: boolean, custom_branch_policies: boolean}|null}} [settings]
 */
export function fakeEnvironment(name, settings = {}) {
  const reviewers = settings.reviewers ?? ['alice'];
  const rules = reviewers.length > 0
    ? [{ id: 3755, node_id: 'GA_3755', type: 'required_reviewers', prevent_self_review: settings.preventSelfReview ?? true, reviewers: reviewers.map((login) => ({ type: 'User', reviewer: userApi(login) })) }]
    : [];
  const branchPolicy = settings.branchPolicy === undefined ? { protected_branches: false, custom_branch_policies: true } : settings.branchPolicy;
  return {
    id: 161088068, node_id: 'EN_161088068', name, url: `${FAKE_API}/repos/acme/tagbench/environments/${name}`, html_url: `https://github.example/acme/tagbench/deployments/activity_log?environments_filter=${name}`,
    created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', can_admins_bypass: settings.adminsBypass ?? false,
    protection_rules: [...rules, ...(branchPolicy ? [{ id: 3756, node_id: 'GA_3756', type: 'branch_policy' }] : [])],
    deployment_branch_policy: branchPolicy,
  };
}

/**
 * One deployment review of a run, as GET /repos/{owner}/{repo}/actions/runs/{id}/approvals lists it.
 * @param {string} login the reviewer
 * @param {string} comment what they wrote
 * @param {{environment?: string, state?: 'approved'|'rejected'}} [options]
 */
export function fakeApproval(login, comment, options = {}) {
  const name = options.environment ?? 'tagbench-pull-requests';
  return {
    environments: [{ id: 161088068, node_id: 'EN_161088068', name, url: `${FAKE_API}/repos/acme/tagbench/environments/${name}`, html_url: `https://github.example/acme/tagbench/deployments/activity_log?environments_filter=${name}`, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' }],
    state: options.state ?? 'approved', user: userApi(login), comment,
  };
}
