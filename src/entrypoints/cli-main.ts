/** The CLI's own entry: what the bundled build (`dist/regreen.mjs`) runs. */
import { main } from './cli.ts';

process.exitCode = await main(process.argv);
