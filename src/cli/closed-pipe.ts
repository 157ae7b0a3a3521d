/** How git and gh end when their reader goes away: killed by SIGPIPE, which a shell reports as 128 + 13. */
export const CLOSED_PIPE_EXIT = 141;

const watched = new WeakSet<NodeJS.WritableStream>();

/**
 * A reader that went away (`regreen --help | head`) ends the process at once
 * and quietly: nothing more can be said to it, and a stack trace about it is
 * noise. Any other error on the stream stays an error.
 */
export const endQuietlyOnClosedPipe = (
  streams: readonly NodeJS.WritableStream[] = [process.stdout, process.stderr],
  exit: (code: number) => void = (code) => process.exit(code),
): void => {
  for (const stream of streams) {
    if (watched.has(stream)) continue;
    watched.add(stream);
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      exit(CLOSED_PIPE_EXIT);
    });
  }
};
