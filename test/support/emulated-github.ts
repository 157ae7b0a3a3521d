import { spawn, execFileSync } from 'node:child_process';
import { createVerify, generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sign } from '@octokit/webhooks-methods';

/**
 * A loopback GitHub: the REST subset regreen uses (Actions runs, jobs and
 * log download with its redirect, pulls, issue and commit comments, check
 * runs, collaborator permissions, App installation tokens) and git smart
 * HTTP through `git http-backend`, with token checks on both. The real
 * octokit, probot and `git push` talk to it.
 */

type Json = Record<string, unknown>;

export interface EmulatedUser {
  readonly login: string;
  readonly type: 'User' | 'Bot';
}

export interface PullRecord {
  number: number;
  id: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  draft: boolean;
  /** Labels given to it (POST /issues/:n/labels). */
  labels?: string[];
  head: string;
  base: string;
  user: EmulatedUser;
  created_at: string;
}

export interface CommentRecord {
  id: number;
  /** `issue:<n>` or `commit:<sha>` */
  on: string;
  body: string;
  user: EmulatedUser;
  created_at: string;
  updated_at: string;
}

export interface CheckRunRecord {
  id: number;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  output: { title?: string; summary?: string; text?: string };
}

export interface JobRecord {
  id: number;
  run_id: number;
  name: string;
  conclusion: 'failure' | 'success';
  head_sha: string;
  steps: { name: string; number: number; conclusion: string }[];
  log: string;
  /** 'gone' answers the log download with 410, as GitHub does once logs expired. */
  logs: 'available' | 'gone';
}

export interface RunRecord {
  id: number;
  name: string;
  head_sha: string;
  head_branch: string;
  event: string;
  conclusion: string;
  check_suite_id: number;
  pull_requests: { number: number; head: { ref: string; sha: string }; base: { ref: string } }[];
}

interface RepoState {
  owner: string;
  name: string;
  bare: string;
  defaultBranch: string;
  permissions: Map<string, 'admin' | 'write' | 'read' | 'none'>;
  pulls: PullRecord[];
  nextNumber: number;
  comments: CommentRecord[];
  checkRuns: CheckRunRecord[];
  runs: Map<number, RunRecord>;
  jobs: Map<number, JobRecord>;
}

export interface InjectedFault {
  readonly method: string;
  readonly path: RegExp;
  readonly status: number;
  /** Secondary rate limits answer 403 with this message and a retry-after. */
  readonly secondaryRateLimit?: boolean;
  remaining: number;
}

const now = (): string => new Date().toISOString();

/** A request field as a string (absent or not a string: the fallback). */
const str = (value: unknown, fallback = ''): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : fallback;

export interface EmulatedGitHub {
  readonly url: string;
  readonly apiUrl: string;
  readonly appId: number;
  readonly installationId: number;
  readonly privateKey: string;
  readonly webhookSecret: string;
  readonly bot: EmulatedUser;
  /** Every REST request as `METHOD /path`, in order. */
  readonly requests: string[];
  /** Every API request's body as it arrived (REST and GraphQL), in order: what regreen told GitHub. */
  readonly requestBodies: {
    readonly method: string;
    readonly path: string;
    readonly body: string;
  }[];
  /** Every Authorization or token-bearing value seen (to prove no token leaks elsewhere). */
  readonly issuedTokens: Set<string>;
  /** The manifests Apps were registered from (the manifest flow), in order. */
  readonly registeredManifests: readonly Json[];
  addRepo(options: {
    owner: string;
    name: string;
    source: string;
    defaultBranch?: string;
  }): RepoState;
  repo(fullName: string): RepoState;
  /** A token for an Actions workflow (`GITHUB_TOKEN`) acting as github-actions[bot]. */
  workflowToken(): string;
  /** A personal token for a user. */
  userToken(login: string): string;
  addRun(fullName: string, run: Omit<RunRecord, 'id' | 'check_suite_id'>): RunRecord;
  addJob(fullName: string, job: Omit<JobRecord, 'id'>): JobRecord;
  /** A pull request opened by a person from a branch of the repository. */
  addPull(
    fullName: string,
    pull: { head: string; base: string; title: string; login: string },
  ): PullRecord;
  /** Adds a person's comment on an issue or PR (as if typed on github.com). */
  addComment(fullName: string, issue: number, login: string, body: string): CommentRecord;
  fault(fault: Omit<InjectedFault, 'remaining'> & { times?: number }): void;
  /** Headers GitHub sends with a webhook delivery, signed with the webhook secret. */
  signedDelivery(event: string, payload: unknown): Promise<{ headers: Json; body: string }>;
  branchSha(fullName: string, branch: string): string | undefined;
  close(): Promise<void>;
}

export const startEmulatedGitHub = async (root: string): Promise<EmulatedGitHub> => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const appId = 4242;
  const installationId = 77;
  const webhookSecret = `whsec-${randomBytes(8).toString('hex')}`;
  const bot: EmulatedUser = { login: 'regreen[bot]', type: 'Bot' };
  const repos = new Map<string, RepoState>();
  const tokens = new Map<string, EmulatedUser>();
  const issuedTokens = new Set<string>();
  const blobs = new Map<string, { job: JobRecord }>();
  const requests: string[] = [];
  const requestBodies: { method: string; path: string; body: string }[] = [];
  const faults: InjectedFault[] = [];
  let nextId = 1000;
  const id = (): number => (nextId += 1);
  let base = '';

  const issue = (user: EmulatedUser, prefix: string): string => {
    const token = `${prefix}_${randomBytes(18).toString('hex')}`;
    tokens.set(token, user);
    issuedTokens.add(token);
    return token;
  };

  const verifyJwt = (jwt: string): boolean => {
    const [header, payload, signature] = jwt.split('.');
    if (!header || !payload || !signature) return false;
    const verifier = createVerify('RSA-SHA256');
    verifier.update(`${header}.${payload}`);
    if (!verifier.verify(publicKey, Buffer.from(signature, 'base64url'))) return false;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Json;
    return String(claims.iss) === String(appId);
  };

  const userOf = (req: IncomingMessage): EmulatedUser | undefined => {
    const auth = req.headers.authorization ?? '';
    const bearer = /^(?:token|bearer)\s+(.+)$/i.exec(auth)?.[1];
    if (bearer) return tokens.get(bearer);
    const basic = /^basic\s+(.+)$/i.exec(auth)?.[1];
    if (basic) {
      const [, password] = Buffer.from(basic, 'base64').toString('utf8').split(':');
      return password ? tokens.get(password) : undefined;
    }
    return undefined;
  };

  const git = (repo: RepoState, args: string[]): string =>
    execFileSync('git', args, { cwd: repo.bare, encoding: 'utf8' }).trim();

  const branchSha = (fullName: string, branch: string): string | undefined => {
    const repo = repos.get(fullName);
    if (!repo) return undefined;
    try {
      return git(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]);
    } catch {
      return undefined;
    }
  };

  const repoJson = (repo: RepoState): Json => ({
    id: 500,
    name: repo.name,
    full_name: `${repo.owner}/${repo.name}`,
    owner: { login: repo.owner, type: 'Organization' },
    private: false,
    default_branch: repo.defaultBranch,
    html_url: `${base}/${repo.owner}/${repo.name}`,
    clone_url: `${base}/${repo.owner}/${repo.name}.git`,
    url: `${base}/api/v3/repos/${repo.owner}/${repo.name}`,
  });

  const pullJson = (repo: RepoState, pr: PullRecord): Json => ({
    number: pr.number,
    id: pr.id,
    node_id: `PR_${pr.id}`,
    title: pr.title,
    body: pr.body,
    state: pr.state,
    draft: pr.draft,
    labels: (pr.labels ?? []).map((name) => ({ name })),
    user: pr.user,
    created_at: pr.created_at,
    html_url: `${base}/${repo.owner}/${repo.name}/pull/${pr.number}`,
    head: {
      ref: pr.head,
      sha: branchSha(`${repo.owner}/${repo.name}`, pr.head) ?? '',
      repo: repoJson(repo),
    },
    base: { ref: pr.base, sha: branchSha(`${repo.owner}/${repo.name}`, pr.base) ?? '' },
  });

  const commentJson = (repo: RepoState, c: CommentRecord): Json => ({
    id: c.id,
    body: c.body,
    user: c.user,
    created_at: c.created_at,
    updated_at: c.updated_at,
    html_url: `${base}/${repo.owner}/${repo.name}/${c.on.replace(':', '/')}#comment-${c.id}`,
  });

  const send = (res: ServerResponse, status: number, body?: unknown, headers: Json = {}): void => {
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'x-ratelimit-remaining': '4999',
      ...(headers as Record<string, string>),
    });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };

  const readBody = async (req: IncomingMessage): Promise<Buffer> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };

  const gitHttp = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const user = userOf(req);
    if (!user) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="GitHub"' });
      res.end('Authentication required\n');
      return;
    }
    const child = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        REQUEST_METHOD: req.method ?? 'GET',
        QUERY_STRING: url.search.replace(/^\?/, ''),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_USER: user.login,
        REMOTE_ADDR: '127.0.0.1',
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: 'http.receivepack',
        GIT_CONFIG_VALUE_0: 'true',
        ...(req.headers['content-encoding']
          ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] }
          : {}),
        ...(typeof req.headers['git-protocol'] === 'string'
          ? { GIT_PROTOCOL: req.headers['git-protocol'] }
          : {}),
      },
    });
    req.pipe(child.stdin);
    const out: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    await new Promise<void>((resolve) => child.on('close', () => resolve()));
    const all = Buffer.concat(out);
    const split = all.indexOf('\r\n\r\n');
    const headerText = all.subarray(0, split).toString('utf8');
    const headers: Record<string, string> = {};
    let status = 200;
    for (const line of headerText.split('\r\n')) {
      const [key, ...rest] = line.split(':');
      if (!key) continue;
      if (key.toLowerCase() === 'status') status = Number.parseInt(rest.join(':').trim(), 10);
      else headers[key] = rest.join(':').trim();
    }
    res.writeHead(status, headers);
    res.end(all.subarray(split + 4));
  };

  const manifests = new Map<string, Json>();
  const registered: Json[] = [];
  const handleApi = async (
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    url: URL,
  ): Promise<void> => {
    const method = req.method ?? 'GET';
    requests.push(`${method} ${pathname}`);
    for (const fault of faults) {
      if (fault.remaining > 0 && fault.method === method && fault.path.test(pathname)) {
        fault.remaining -= 1;
        if (fault.secondaryRateLimit) {
          send(
            res,
            403,
            { message: 'You have exceeded a secondary rate limit. Please wait a few minutes.' },
            { 'retry-after': '1' },
          );
        } else send(res, fault.status, { message: 'Server Error' });
        return;
      }
    }
    const raw = await readBody(req);
    requestBodies.push({ method, path: pathname, body: raw.toString('utf8') });
    const body = (raw.length > 0 ? JSON.parse(raw.toString('utf8')) : {}) as Json;

    // The manifest flow's exchange: the one-time code for the App's id, key and webhook secret.
    const conversion = /^\/app-manifests\/([^/]+)\/conversions$/.exec(pathname);
    if (conversion && method === 'POST') {
      const manifest = manifests.get(conversion[1] ?? '');
      if (!manifest) return send(res, 404, { message: 'Not Found' });
      manifests.delete(conversion[1] ?? '');
      registered.push(manifest);
      return send(res, 201, {
        id: appId,
        slug: str(manifest.name, 'app'),
        name: str(manifest.name, 'app'),
        html_url: `${base}/apps/${str(manifest.name, 'app')}`,
        pem,
        webhook_secret: webhookSecret,
        client_id: 'Iv1.emulated',
        client_secret: randomBytes(20).toString('hex'),
        permissions: manifest.default_permissions,
        events: manifest.default_events,
      });
    }

    // App authentication: a JWT signed with the App's key gets installation tokens.
    const tokenMatch = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(pathname);
    if (tokenMatch && method === 'POST') {
      const jwt = /^bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
      if (!verifyJwt(jwt))
        return send(res, 401, { message: 'A JSON web token could not be decoded' });
      return send(res, 201, {
        token: issue(bot, 'ghs'),
        expires_at: new Date(Date.now() + 3600_000).toISOString(),
        permissions: {
          contents: 'write',
          pull_requests: 'write',
          checks: 'write',
          actions: 'read',
        },
      });
    }
    if (pathname === '/user' && method === 'GET') {
      const user = userOf(req);
      if (!user) return send(res, 401, { message: 'Requires authentication' });
      if (user.type === 'Bot')
        return send(res, 403, { message: 'Resource not accessible by integration' });
      return send(res, 200, { login: user.login, type: 'User' });
    }
    if (pathname === '/app' && method === 'GET') {
      return send(res, 200, { id: appId, slug: 'regreen', name: 'regreen' });
    }
    // GraphQL: the one mutation regreen uses (REST cannot turn a draft into a ready pull request).
    if (pathname === '/graphql' && method === 'POST') {
      if (!userOf(req)) return send(res, 401, { message: 'Bad credentials' });
      const query = str(body.query, '');
      const variables = (body.variables ?? {}) as Json;
      if (!/markPullRequestReadyForReview/.test(query))
        return send(res, 200, { errors: [{ message: 'unsupported query' }] });
      const nodeId = str(variables.id, '');
      for (const repo of repos.values()) {
        const pr = repo.pulls.find((p) => `PR_${p.id}` === nodeId);
        if (pr) {
          pr.draft = false;
          return send(res, 200, {
            data: { markPullRequestReadyForReview: { pullRequest: { isDraft: false } } },
          });
        }
      }
      return send(res, 200, { errors: [{ message: `no pull request ${nodeId}` }] });
    }

    const repoMatch = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(pathname);
    if (!repoMatch) return send(res, 404, { message: 'Not Found' });
    const repo = repos.get(`${repoMatch[1]}/${repoMatch[2]}`);
    if (!repo) return send(res, 404, { message: 'Not Found' });
    const rest = repoMatch[3] ?? '';
    if (rest === '/installation') {
      const jwt = /^bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
      if (!verifyJwt(jwt)) return send(res, 401, { message: 'Bad credentials' });
      return send(res, 200, { id: installationId, app_id: appId });
    }
    const user = userOf(req);
    if (!user) return send(res, 401, { message: 'Bad credentials' });
    let m: RegExpExecArray | null;

    if (rest === '' && method === 'GET') return send(res, 200, repoJson(repo));
    // The git data API: commits and refs made without a clone.
    if ((m = /^\/git\/commits\/([0-9a-f]{40})$/.exec(rest)) && method === 'GET') {
      const sha = m[1] ?? '';
      return send(res, 200, { sha, tree: { sha: git(repo, ['rev-parse', `${sha}^{tree}`]) } });
    }
    if (rest === '/git/commits' && method === 'POST') {
      const author = (body.author ?? {}) as Json;
      const parents = (Array.isArray(body.parents) ? body.parents : []) as string[];
      const sha = execFileSync(
        'git',
        [
          'commit-tree',
          str(body.tree, ''),
          ...parents.flatMap((p) => ['-p', p]),
          '-m',
          str(body.message, ''),
        ],
        {
          cwd: repo.bare,
          encoding: 'utf8',
          env: {
            ...process.env,
            GIT_AUTHOR_NAME: str(author.name, user.login),
            GIT_AUTHOR_EMAIL: str(author.email, `${user.login}@users.noreply`),
            GIT_COMMITTER_NAME: str(author.name, user.login),
            GIT_COMMITTER_EMAIL: str(author.email, `${user.login}@users.noreply`),
          },
        },
      ).trim();
      return send(res, 201, { sha });
    }
    if (rest === '/git/refs' && method === 'POST') {
      const ref = str(body.ref, '');
      if (!ref.startsWith('refs/heads/') || branchSha(`${repo.owner}/${repo.name}`, ref.slice(11)))
        return send(res, 422, { message: 'Reference already exists' });
      git(repo, ['update-ref', ref, str(body.sha, '')]);
      return send(res, 201, { ref, object: { sha: str(body.sha, '') } });
    }
    if (rest === '/actions/runs' && method === 'GET') {
      const sha = url.searchParams.get('head_sha');
      const status = url.searchParams.get('status');
      const branch = url.searchParams.get('branch');
      // Like GitHub: newest first.
      const runs = [...repo.runs.values()]
        .filter(
          (r) =>
            (!sha || r.head_sha === sha) &&
            (!status || r.conclusion === status) &&
            (!branch || r.head_branch === branch),
        )
        .sort((a, b) => b.id - a.id);
      return send(res, 200, { total_count: runs.length, workflow_runs: runs });
    }
    if ((m = /^\/actions\/runs\/(\d+)$/.exec(rest))) {
      const run = repo.runs.get(Number(m[1]));
      return run ? send(res, 200, run) : send(res, 404, { message: 'Not Found' });
    }
    if ((m = /^\/actions\/runs\/(\d+)\/jobs$/.exec(rest))) {
      const jobs = [...repo.jobs.values()].filter((j) => j.run_id === Number(m?.[1]));
      const filter = url.searchParams.get('filter');
      return send(res, 200, {
        total_count: jobs.length,
        jobs: jobs.map((j) => jobJson(repo, j, filter)),
      });
    }
    if ((m = /^\/actions\/jobs\/(\d+)$/.exec(rest))) {
      const job = repo.jobs.get(Number(m[1]));
      return job
        ? send(res, 200, jobJson(repo, job, null))
        : send(res, 404, { message: 'Not Found' });
    }
    if ((m = /^\/actions\/jobs\/(\d+)\/logs$/.exec(rest))) {
      const job = repo.jobs.get(Number(m[1]));
      if (!job) return send(res, 404, { message: 'Not Found' });
      if (job.logs === 'gone') return send(res, 410, { message: 'Gone' });
      const key = randomBytes(12).toString('hex');
      blobs.set(key, { job });
      // Like GitHub: a redirect to a short-lived, pre-signed blob URL (no auth there).
      res.writeHead(302, {
        location: `${base}/_blobs/${key}?sig=${randomBytes(6).toString('hex')}`,
      });
      res.end();
      return;
    }
    if ((m = /^\/check-suites\/(\d+)\/check-runs$/.exec(rest))) {
      const suite = Number(m[1]);
      const runIds = [...repo.runs.values()]
        .filter((r) => r.check_suite_id === suite)
        .map((r) => r.id);
      const jobs = [...repo.jobs.values()].filter((j) => runIds.includes(j.run_id));
      return send(res, 200, {
        total_count: jobs.length,
        check_runs: jobs.map((j) => ({
          id: j.id,
          name: j.name,
          head_sha: j.head_sha,
          status: 'completed',
          conclusion: j.conclusion,
          details_url: `${base}/${repo.owner}/${repo.name}/actions/runs/${j.run_id}/job/${j.id}`,
          app: { slug: 'github-actions' },
        })),
      });
    }
    if ((m = /^\/collaborators\/([^/]+)\/permission$/.exec(rest))) {
      const login = decodeURIComponent(m[1] ?? '');
      const permission = repo.permissions.get(login) ?? 'none';
      return send(res, 200, { permission, role_name: permission, user: { login } });
    }
    if (rest === '/pulls' && method === 'GET') {
      const head = url.searchParams.get('head');
      const state = url.searchParams.get('state') ?? 'open';
      const list = repo.pulls.filter(
        (p) =>
          (state === 'all' || p.state === state) && (!head || `${repo.owner}:${p.head}` === head),
      );
      return send(
        res,
        200,
        list.map((p) => pullJson(repo, p)),
      );
    }
    if (rest === '/pulls' && method === 'POST') {
      const head = str(body.head, '');
      if (!branchSha(`${repo.owner}/${repo.name}`, head))
        return send(res, 422, {
          message: 'Validation Failed',
          errors: [{ field: 'head', code: 'invalid' }],
        });
      if (repo.pulls.some((p) => p.state === 'open' && p.head === head))
        return send(res, 422, {
          message: `A pull request already exists for ${repo.owner}:${head}.`,
        });
      const pr: PullRecord = {
        number: (repo.nextNumber += 1),
        id: id(),
        title: str(body.title, ''),
        body: str(body.body, ''),
        state: 'open',
        draft: body.draft === true,
        head,
        base: str(body.base, repo.defaultBranch),
        user,
        created_at: now(),
      };
      repo.pulls.push(pr);
      return send(res, 201, pullJson(repo, pr));
    }
    if ((m = /^\/pulls\/(\d+)$/.exec(rest))) {
      const pr = repo.pulls.find((p) => p.number === Number(m?.[1]));
      if (!pr) return send(res, 404, { message: 'Not Found' });
      if (method === 'PATCH') {
        if (typeof body.title === 'string') pr.title = body.title;
        if (typeof body.body === 'string') pr.body = body.body;
        if (body.state === 'closed' || body.state === 'open') pr.state = body.state;
      }
      return send(res, 200, pullJson(repo, pr));
    }
    if ((m = /^\/commits\/([0-9a-f]+)\/pulls$/.exec(rest))) {
      const sha = m[1] ?? '';
      const list = repo.pulls.filter(
        (p) => branchSha(`${repo.owner}/${repo.name}`, p.head) === sha,
      );
      return send(
        res,
        200,
        list.map((p) => pullJson(repo, p)),
      );
    }
    const onIssue = /^\/issues\/(\d+)\/comments$/.exec(rest);
    const onCommit = /^\/commits\/([0-9a-f]+)\/comments$/.exec(rest);
    const commentTarget = onIssue
      ? `issue:${onIssue[1]}`
      : onCommit
        ? `commit:${onCommit[1]}`
        : undefined;
    if ((m = /^\/issues\/(\d+)\/labels$/.exec(rest)) && method === 'POST') {
      const pr = repo.pulls.find((p) => p.number === Number(m?.[1]));
      if (!pr) return send(res, 404, { message: 'Not Found' });
      const given = Array.isArray(body.labels)
        ? body.labels.filter((l) => typeof l === 'string')
        : [];
      pr.labels = [...new Set([...(pr.labels ?? []), ...given])];
      return send(
        res,
        200,
        pr.labels.map((name) => ({ name })),
      );
    }
    if (commentTarget && method === 'GET') {
      return send(
        res,
        200,
        repo.comments.filter((c) => c.on === commentTarget).map((c) => commentJson(repo, c)),
      );
    }
    if (commentTarget && method === 'POST') {
      const comment: CommentRecord = {
        id: id(),
        on: commentTarget,
        body: str(body.body, ''),
        user,
        created_at: now(),
        updated_at: now(),
      };
      repo.comments.push(comment);
      return send(res, 201, commentJson(repo, comment));
    }
    if ((m = /^\/(?:issues\/)?comments\/(\d+)$/.exec(rest))) {
      const comment = repo.comments.find((c) => c.id === Number(m?.[1]));
      if (!comment) return send(res, 404, { message: 'Not Found' });
      if (method === 'PATCH') {
        if (comment.user.login !== user.login)
          return send(res, 403, { message: 'Resource not accessible by integration' });
        comment.body = str(body.body, comment.body);
        comment.updated_at = now();
      }
      return send(res, 200, commentJson(repo, comment));
    }
    if ((m = /^\/issues\/(\d+)\/reactions$/.exec(rest)) && method === 'POST') {
      return send(res, 201, { id: id(), content: body.content });
    }
    if ((m = /^\/issues\/comments\/(\d+)\/reactions$/.exec(rest)) && method === 'POST') {
      return send(res, 201, { id: id(), content: body.content });
    }
    if (rest === '/check-runs' && method === 'POST') {
      const run: CheckRunRecord = {
        id: id(),
        name: str(body.name, ''),
        head_sha: str(body.head_sha, ''),
        status: str(body.status, 'queued'),
        conclusion: (body.conclusion as string | undefined) ?? null,
        output: (body.output as CheckRunRecord['output'] | undefined) ?? {},
      };
      repo.checkRuns.push(run);
      return send(res, 201, run);
    }
    if ((m = /^\/check-runs\/(\d+)$/.exec(rest)) && method === 'PATCH') {
      const run = repo.checkRuns.find((r) => r.id === Number(m?.[1]));
      if (!run) return send(res, 404, { message: 'Not Found' });
      if (typeof body.status === 'string') run.status = body.status;
      if (typeof body.conclusion === 'string') run.conclusion = body.conclusion;
      if (body.output) run.output = body.output;
      return send(res, 200, run);
    }
    return send(res, 404, { message: `Not Found (emulator): ${method} ${pathname}` });
  };

  const jobJson = (repo: RepoState, job: JobRecord, filter: string | null): Json => ({
    id: job.id,
    run_id: job.run_id,
    name: job.name,
    status: 'completed',
    conclusion: job.conclusion,
    head_sha: job.head_sha,
    steps: job.steps.map((s) => ({ ...s, status: 'completed' })),
    html_url: `${base}/${repo.owner}/${repo.name}/actions/runs/${job.run_id}/job/${job.id}`,
    ...(filter ? {} : {}),
  });

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const pathname = url.pathname;
    const done = (error: unknown): void => {
      if (!res.headersSent) send(res, 500, { message: String(error) });
      else res.end();
    };
    if (pathname.startsWith('/_blobs/')) {
      const blob = blobs.get(pathname.slice('/_blobs/'.length));
      if (!blob) return send(res, 404, { message: 'BlobNotFound' });
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(blob.job.log);
      return;
    }
    if (/^\/[^/]+\/[^/]+\.git\//.test(pathname)) {
      gitHttp(req, res, url).catch(done);
      return;
    }
    // The manifest flow's web step: a person clicks "Create GitHub App" on the posted manifest;
    // GitHub keeps it under a one-time code and sends the browser to the manifest's redirect_url.
    if (
      req.method === 'POST' &&
      /^(?:\/organizations\/[^/]+)?\/settings\/apps\/new$/.test(pathname)
    ) {
      readBody(req)
        .then((raw) => {
          const manifest = JSON.parse(
            new URLSearchParams(raw.toString('utf8')).get('manifest') ?? '{}',
          ) as Json;
          const code = randomBytes(10).toString('hex');
          manifests.set(code, manifest);
          const back = new URL(str(manifest.redirect_url));
          back.searchParams.set('code', code);
          back.searchParams.set('state', url.searchParams.get('state') ?? '');
          res.writeHead(302, { location: back.href });
          res.end();
        })
        .catch(done);
      return;
    }
    if (pathname.startsWith('/api/v3/')) {
      handleApi(req, res, pathname.slice('/api/v3'.length), url).catch(done);
      return;
    }
    // GitHub Enterprise's GraphQL endpoint, where octokit sends it.
    if (pathname === '/api/graphql') {
      handleApi(req, res, '/graphql', url).catch(done);
      return;
    }
    send(res, 404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    apiUrl: `${base}/api/v3`,
    appId,
    installationId,
    privateKey: pem,
    webhookSecret,
    bot,
    requests,
    requestBodies,
    issuedTokens,
    registeredManifests: registered,
    addRepo: ({ owner, name, source, defaultBranch = 'main' }) => {
      const bare = path.join(root, owner, `${name}.git`);
      mkdirSync(path.dirname(bare), { recursive: true });
      execFileSync('git', ['clone', '--quiet', '--bare', source, bare]);
      const state: RepoState = {
        owner,
        name,
        bare,
        defaultBranch,
        permissions: new Map([[owner, 'admin']]),
        pulls: [],
        nextNumber: 0,
        comments: [],
        checkRuns: [],
        runs: new Map(),
        jobs: new Map(),
      };
      repos.set(`${owner}/${name}`, state);
      return state;
    },
    repo: (fullName) => {
      const repo = repos.get(fullName);
      if (!repo) throw new Error(`no repo ${fullName}`);
      return repo;
    },
    workflowToken: () => issue({ login: 'github-actions[bot]', type: 'Bot' }, 'ghs'),
    userToken: (login) => issue({ login, type: 'User' }, 'ghp'),
    addRun: (fullName, run) => {
      const record: RunRecord = { ...run, id: id(), check_suite_id: id() };
      repos.get(fullName)?.runs.set(record.id, record);
      return record;
    },
    addJob: (fullName, job) => {
      const record: JobRecord = { ...job, id: id() };
      repos.get(fullName)?.jobs.set(record.id, record);
      return record;
    },
    addPull: (fullName, pull) => {
      const repo = repos.get(fullName);
      if (!repo) throw new Error(`no repo ${fullName}`);
      const record: PullRecord = {
        number: (repo.nextNumber += 1),
        id: id(),
        title: pull.title,
        body: '',
        state: 'open',
        draft: false,
        head: pull.head,
        base: pull.base,
        user: { login: pull.login, type: 'User' },
        created_at: now(),
      };
      repo.pulls.push(record);
      return record;
    },
    addComment: (fullName, issueNumber, login, body) => {
      const comment: CommentRecord = {
        id: id(),
        on: `issue:${issueNumber}`,
        body,
        user: { login, type: 'User' },
        created_at: now(),
        updated_at: now(),
      };
      repos.get(fullName)?.comments.push(comment);
      return comment;
    },
    fault: ({ times = 1, ...fault }) => faults.push({ ...fault, remaining: times }),
    signedDelivery: async (event, payload) => {
      const body = JSON.stringify(payload);
      return {
        body,
        headers: {
          'content-type': 'application/json',
          'x-github-event': event,
          'x-github-delivery': randomBytes(16).toString('hex'),
          'x-hub-signature-256': await sign(webhookSecret, body),
          'user-agent': 'GitHub-Hookshot/emulated',
        },
      };
    },
    branchSha,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
