/**
 * Every test file's process. When the suite runs as root, regreen gives the
 * sandbox's workspaces to an unprivileged uid (`sandbox/identity.ts`): the
 * tests' own git, run as root on such a workspace to look at what a job did,
 * takes them as safe, as regreen's host git does (`SAFE_GIT_CONFIG`).
 */
if (process.env.GIT_CONFIG_COUNT === undefined) {
  process.env.GIT_CONFIG_COUNT = '1';
  process.env.GIT_CONFIG_KEY_0 = 'safe.directory';
  process.env.GIT_CONFIG_VALUE_0 = '*';
}

/**
 * A job's trees go on a volume of their own when regreen runs as root with a
 * loop device (`job-volume.ts`), unmounted when the job ends. Tests look into
 * a finished job's workspace, so they keep the trees on the data dir unless
 * they ask for the volume (`test/security/disk-volume.test.ts` does).
 */
process.env.REGREEN_JOB_VOLUME ??= 'off';
