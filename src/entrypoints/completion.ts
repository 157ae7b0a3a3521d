import { Command } from 'commander';
import type { CliContext } from '../cli/context.ts';
import { RegreenError } from '../errors.ts';
import { SUMMARIES } from '../cli/summaries.ts';

type Register = (program: Command, context: CliContext) => void;

/** One command as completion sees it: its words, its long options, its subcommands. */
export interface CompletionNode {
  readonly name: string;
  readonly description: string;
  readonly options: readonly { readonly flag: string; readonly description: string }[];
  readonly children: readonly CompletionNode[];
}

const nodeOf = (command: Command): CompletionNode => ({
  name: command.name(),
  description: command.description(),
  options: command.options
    .filter((option) => option.long !== undefined)
    .map((option) => ({ flag: option.long as string, description: option.description })),
  children: command.commands.map(nodeOf),
});

/** The tree of every command, read from their own registrations: completion never drifts from them. */
export const completionTree = (registers: readonly Register[], context: CliContext) => {
  const program = new Command('regreen');
  for (const register of registers) register(program, context);
  return program.commands.map(nodeOf);
};

const GLOBAL = ['--quiet', '--verbose', '--log-format', '--help', '--version'];

const words = (node: CompletionNode): string =>
  [...node.children.map((child) => child.name), ...node.options.map((o) => o.flag), '--help'].join(
    ' ',
  );

/** bash (and zsh through bashcompinit): the command, its subcommands, then their options. */
const bash = (tree: readonly CompletionNode[]): string => {
  const cases = tree.flatMap((node) => [
    `    ${node.name}) case "$sub" in`,
    ...node.children.map((child) => `      ${child.name}) opts="${words(child)}" ;;`),
    `      *) opts="${words(node)}" ;;`,
    '    esac ;;',
  ]);
  return [
    '# regreen completion for bash: eval "$(regreen completion bash)"',
    '_regreen() {',
    '  local cur="${COMP_WORDS[COMP_CWORD]}" cmd="${COMP_WORDS[1]}" sub="${COMP_WORDS[2]}" opts',
    '  if [ "$COMP_CWORD" -eq 1 ]; then',
    `    COMPREPLY=( $(compgen -W "${[...tree.map((n) => n.name), ...GLOBAL].join(' ')}" -- "$cur") )`,
    '    return',
    '  fi',
    '  [ "$COMP_CWORD" -eq 2 ] && sub=""',
    '  case "$cmd" in',
    ...cases,
    '    *) opts="" ;;',
    '  esac',
    `  COMPREPLY=( $(compgen -W "$opts ${GLOBAL.slice(0, 3).join(' ')}" -- "$cur") )`,
    '}',
    'complete -o default -F _regreen regreen',
    '',
  ].join('\n');
};

const fishQuote = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** fish: each word with its description, offered where it applies. */
const fish = (tree: readonly CompletionNode[]): string => {
  const lines = [
    '# regreen completion for fish: regreen completion fish | source',
    'complete -c regreen -f',
  ];
  for (const node of tree) {
    lines.push(
      `complete -c regreen -n __fish_use_subcommand -a ${node.name} -d ${fishQuote(node.description)}`,
    );
    for (const option of node.options)
      lines.push(
        `complete -c regreen -n '__fish_seen_subcommand_from ${node.name}' -l ${option.flag.slice(2)} -d ${fishQuote(option.description)}`,
      );
    for (const child of node.children) {
      lines.push(
        `complete -c regreen -n '__fish_seen_subcommand_from ${node.name}' -a ${child.name} -d ${fishQuote(child.description)}`,
      );
      for (const option of child.options)
        lines.push(
          `complete -c regreen -n '__fish_seen_subcommand_from ${child.name}' -l ${option.flag.slice(2)} -d ${fishQuote(option.description)}`,
        );
    }
  }
  return `${lines.join('\n')}\n`;
};

export const completionScript = (shell: string, tree: readonly CompletionNode[]): string => {
  switch (shell) {
    case 'bash':
      return bash(tree);
    case 'zsh':
      return `# regreen completion for zsh: eval "$(regreen completion zsh)"\nautoload -U +X bashcompinit && bashcompinit\n${bash(tree)}`;
    case 'fish':
      return fish(tree);
    default:
      throw new RegreenError(
        'usage',
        `completion is for bash, zsh or fish, not ${JSON.stringify(shell)}. For bash: eval "$(regreen completion bash)" in ~/.bashrc`,
      );
  }
};

/** `regreen completion bash|zsh|fish`: a script for the shell, from every command's registration. */
export const registerCompletion =
  (loadAll: () => Promise<readonly Register[]>): Register =>
  (program, context) => {
    program
      .command('completion')
      .description(SUMMARIES.completion)
      .argument('<shell>', 'bash, zsh or fish')
      .action(async (shell: string) => {
        // The two words no other registration names: this command, and `help <command>`.
        const tree = completionTree(await loadAll(), context);
        const names = tree.map((node) => node.name);
        const more: CompletionNode[] = [
          { name: 'completion', description: SUMMARIES.completion, options: [], children: [] },
          {
            name: 'help',
            description: 'help for a command',
            options: [],
            children: names.map((name) => ({ name, description: '', options: [], children: [] })),
          },
        ];
        process.stdout.write(completionScript(shell, [...tree, ...more]));
        context.setExit(0);
      });
  };
