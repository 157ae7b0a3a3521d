/**
 * What `regreen serve` starts with: the App's credentials and the model's
 * keys, from the environment or the `.env` file, else a registration through
 * GitHub's manifest flow; and the line that names the model at start.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { settingsOf, type Env } from '../config/env.ts';
import { RegreenError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { packageRoot } from '../util/package-root.ts';
import { exposedDotenvWarning, readEnvFile } from '../config/dotenv.ts';
import { registerApp } from './app-setup.ts';

/** The model the App's jobs use, as the start line names it (a job's repository config may choose another). */
export const modelLine = (env: Env): string => {
  const settings = settingsOf(env);
  if (settings.model) return settings.model;
  if (settings.anthropicApiKey) return 'anthropic (ANTHROPIC_API_KEY is set)';
  return 'none: recipes only (set ANTHROPIC_API_KEY, or REGREEN_MODEL with its key, in the environment or .env)';
};

/** The App's credentials: the keys the first run writes to `.env`. */
const APP_CREDENTIALS = ['APP_ID', 'PRIVATE_KEY', 'WEBHOOK_SECRET'] as const;

/**
 * What else a `.env` may give `serve`: the model and its keys, as the README
 * says. Nothing that moves the boundary (the sandbox, the API server, the
 * limits) comes from a file behind the operator's environment.
 */
const MODEL_KEYS = [
  'REGREEN_MODEL',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_BASE_URL',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
] as const;

/**
 * Probot's `PRIVATE_KEY_PATH`: the App's key read from the file the operator
 * names, when `PRIVATE_KEY` itself is not set.
 */
export const withKeyFile = (env: Env): Env => {
  const { privateKey, privateKeyPath: file } = settingsOf(env);
  if (privateKey || !file) return env;
  try {
    return { ...env, PRIVATE_KEY: readFileSync(path.resolve(file), 'utf8') };
  } catch (error) {
    throw new RegreenError(
      'usage',
      `PRIVATE_KEY_PATH names ${file}, which cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}): give the .pem file GitHub gave for the App`,
    );
  }
};

/**
 * The environment `serve` runs with: the App's credentials (and the model's
 * keys) from the environment, else from the `.env` file, else registered
 * now through GitHub's manifest flow (which writes that file). Some of the
 * credentials but not all is an error naming the missing ones, never a
 * second App.
 */
export const credentialsFor = async (
  env: Env,
  logger: Logger,
  options: { port: number; envFile: string; publicUrl?: string; org?: string },
): Promise<Env> => {
  const file = path.resolve(options.envFile);
  const exposed = exposedDotenvWarning(file);
  if (exposed) process.stderr.write(`[regreen] warn: ${exposed}\n`);
  const saved = existsSync(file)
    ? readEnvFile(file, (line) =>
        process.stderr.write(
          `[regreen] warn: ${file}:${line} is not a NAME=value line: it is ignored\n`,
        ),
      )
    : {};
  const set = new Set(
    Object.entries(env)
      .filter(([, value]) => value)
      .map(([key]) => key),
  );
  const merged: Env = withKeyFile({
    ...env,
    ...Object.fromEntries(
      [...APP_CREDENTIALS, 'PRIVATE_KEY_PATH', ...MODEL_KEYS]
        .filter((key) => saved[key] !== undefined && !set.has(key))
        .map((key) => [key, saved[key]]),
    ),
  });
  const settings = settingsOf(merged);
  const given = {
    APP_ID: settings.appId,
    PRIVATE_KEY: settings.privateKey,
    WEBHOOK_SECRET: settings.webhookSecret,
  };
  const missing = APP_CREDENTIALS.filter((key) => !given[key]);
  if (missing.length === 0) return merged;
  if (missing.length < APP_CREDENTIALS.length)
    throw new RegreenError(
      'usage',
      `the App's ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set (in the environment or ${file}), while ${APP_CREDENTIALS.filter((key) => given[key]).join(' and ')} ${missing.length > 1 ? 'is' : 'are'}: set ${missing.length > 1 ? 'them' : 'it'} from the App's settings page, or remove the others to register a new App`,
    );
  const registration = await registerApp({
    env,
    logger,
    port: options.port,
    ...(settings.host ? { host: settings.host } : {}),
    appYml: readFileSync(appManifestFile(), 'utf8'),
    envFile: file,
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    ...(options.org ? { org: options.org } : {}),
    onListening: (url) =>
      process.stderr.write(
        `[regreen] no App credentials: open ${url} to register regreen on GitHub${
          options.publicUrl
            ? ''
            : `\n[regreen] no --public-url: the App's webhook URL would be ${url}, which GitHub cannot reach; start it with --public-url https://… (where GitHub reaches this server) unless a tunnel serves this address`
        }\n`,
      ),
  });
  process.stderr.write(
    `[regreen] registered App ${registration.appId}; credentials written to ${file}${registration.htmlUrl ? `; install it: ${registration.htmlUrl}/installations/new` : ''}\n`,
  );
  return {
    ...merged,
    APP_ID: registration.appId,
    PRIVATE_KEY: registration.privateKey,
    WEBHOOK_SECRET: registration.webhookSecret,
  };
};

/** app.yml at the package's root, from the sources (`src/entrypoints`) or the build (`dist/src/entrypoints`). */
/** The App's manifest, at the root of regreen's package (a checkout or the installed tarball). */
const appManifestFile = (): string => {
  const file = path.join(packageRoot(), 'app.yml');
  if (!existsSync(file))
    throw new RegreenError('internal', `app.yml is missing from the package (looked in ${file})`);
  return file;
};
