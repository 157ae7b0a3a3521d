import { describeError } from '../errors.ts';
import { hasWriteAccess, type GitHubClient } from '../forge/github/client.ts';
import type { Logger } from '../logger.ts';
import { redactSecrets } from '../util/secrets.ts';
import { cardMarker, parseReply, renderMarkdownCard } from './card.ts';
import { systemWaitClock, type QuestionChannel, type WaitClock } from './channel.ts';

const CORRECTION = (commentId: number) => `<!-- regreen:correction of=${commentId} -->`;

interface Card {
  readonly commentId: number;
  readonly url: string;
}

/**
 * Questions as comments on a pull request: the card is a comment with a
 * hidden marker, answers are the comments after it. Only people with write
 * access count (others are ignored and never reach the model); regreen's own
 * comments are skipped; an invalid reply gets one short correction and the
 * card stays open. Polls with backoff until the deadline.
 */
export const githubQuestionChannel = (options: {
  client: GitHubClient;
  owner: string;
  repo: string;
  pullNumber: number;
  /** regreen's own login (the App's bot, or the token's user), whose comments are never answers. */
  selfLogin: () => Promise<string | undefined>;
  logger: Logger;
  clock?: WaitClock;
  /** First and longest pause between polls. */
  backoffMs?: { first: number; max: number };
}): QuestionChannel => {
  const { client, logger } = options;
  const clock = options.clock ?? systemWaitClock;
  const repoArgs = { owner: options.owner, repo: options.repo };
  const cards = new Map<string, Card>();
  const permissions = new Map<string, boolean>();
  const corrected = new Set<number>();

  const comments = () =>
    client.paginate(client.rest.issues.listComments, {
      ...repoArgs,
      issue_number: options.pullNumber,
      per_page: 100,
    });

  const canWrite = async (login: string): Promise<boolean> => {
    const known = permissions.get(login);
    if (known !== undefined) return known;
    let allowed = false;
    try {
      allowed = await hasWriteAccess(client, repoArgs, login);
    } catch (error) {
      logger.debug({ login, err: describeError(error) }, 'no permission for this user');
    }
    permissions.set(login, allowed);
    return allowed;
  };

  const findCard = async (id: string): Promise<Card | undefined> => {
    const known = cards.get(id);
    if (known) return known;
    const found = (await comments()).find((c) => c.body?.includes(cardMarker(id)));
    if (!found) return undefined;
    const card = { commentId: found.id, url: found.html_url };
    cards.set(id, card);
    return card;
  };

  return {
    kind: 'github',
    open: async (id, question, timeoutMinutes) => {
      const existing = await findCard(id);
      if (existing) return { where: existing.url, pullNumber: options.pullNumber };
      const { data } = await client.rest.issues.createComment({
        ...repoArgs,
        issue_number: options.pullNumber,
        // The model wrote the question: it goes through the one redaction like all text that leaves.
        body: redactSecrets(renderMarkdownCard(id, question, timeoutMinutes)),
      });
      cards.set(id, { commentId: data.id, url: data.html_url });
      return { where: data.html_url, pullNumber: options.pullNumber };
    },
    wait: async (id, question, deadline, signal) => {
      const card = await findCard(id);
      if (!card) throw new Error(`the card of question ${id} is gone`);
      const self = await options.selfLogin();
      let pause = options.backoffMs?.first ?? 5000;
      for (;;) {
        const all = await comments();
        for (const comment of all) {
          if (comment.id <= card.commentId || !comment.user || !comment.body) continue;
          const login = comment.user.login;
          if (comment.user.type === 'Bot' || login === self) continue;
          if (!(await canWrite(login))) continue;
          const parsed = parseReply(comment.body, question);
          if (parsed.ok) {
            const at = Date.parse(comment.updated_at) || clock.now();
            return parsed.answer.kind === 'skip'
              ? { kind: 'skip', by: login, at }
              : { ...parsed.answer, by: login, at };
          }
          // One correction per reply, also across restarts (the marker names the reply).
          if (
            !corrected.has(comment.id) &&
            !all.some((c) => c.body?.includes(CORRECTION(comment.id)))
          ) {
            corrected.add(comment.id);
            await client.rest.issues.createComment({
              ...repoArgs,
              issue_number: options.pullNumber,
              body: `@${login} ${parsed.correction} The question is still open.\n\n${CORRECTION(comment.id)}`,
            });
          }
        }
        const left = deadline - clock.now();
        if (left <= 0 || signal.aborted) return { kind: 'timeout', at: clock.now() };
        await clock.sleep(Math.min(pause, left), signal);
        pause = Math.min(pause * 2, options.backoffMs?.max ?? 60_000);
      }
    },
    close: async (id, _question, answer) => {
      const card = await findCard(id);
      if (!card) return;
      const { data } = await client.rest.issues.getComment({
        ...repoArgs,
        comment_id: card.commentId,
      });
      const ending =
        answer.kind === 'answer'
          ? `✅ Answered by @${answer.by}${answer.labels.length ? `: ${answer.labels.join(', ')}` : ''}${answer.text ? `${answer.labels.length ? '; ' : ': '}“${answer.text.slice(0, 200).replace(/\s+/g, ' ')}”` : ''}.`
          : answer.kind === 'skip'
            ? `⏭️ Skipped by @${answer.by}: regreen goes on under its own assumption.`
            : '⌛ No answer in time: regreen went on under its own assumption.';
      await client.rest.issues.updateComment({
        ...repoArgs,
        comment_id: card.commentId,
        body: `${data.body ?? ''}\n\n---\n${ending}`,
      });
    },
  };
};
