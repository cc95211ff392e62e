import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { timecapsuleDepsOf } from '../areaDeps';
import type { AppContext } from '../context';
import { escapeHtml } from '../domain/escapeHtml';
import { isMailReportToken, reportMail } from '../domain/timecapsule/mailReports';
import { japaneseTexts } from '../lib/translations';

export const MAIL_REPORT_PATH = '/mail-report';

const tokenField = z.object({ token: z.string().max(200).default('') });

/** A plain page of the report: its lead and a button, or one sentence of outcome. */
async function sendPage(reply: FastifyReply, status: number, body: string): Promise<void> {
  const t = await japaneseTexts();
  const title = escapeHtml(t('mail-report-page-title'));
  await reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(
      `<!doctype html><html lang="ja"><head><meta charset="utf-8">` +
        `<meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<meta name="robots" content="noindex"><title>${title}</title></head>` +
        `<body style="font-family:sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.8">` +
        `<main><h1 style="font-size:1.25rem">${title}</h1>${body}</main></body></html>`,
    );
}

/**
 * "Report this mail", linked from every mail a member's letter causes. Opening the link shows
 * a page with one button; only its POST records the report, so a mail scanner that follows
 * links reports nothing. No sign-in: the token in the link is the proof of having the mail.
 */
export async function mailReportRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const deps = timecapsuleDepsOf(ctx);
  const invalidPage = async (reply: FastifyReply) => {
    const t = await japaneseTexts();
    return sendPage(reply, 400, `<p>${escapeHtml(t('mail-report-invalid'))}</p>`);
  };

  app.get(MAIL_REPORT_PATH, { schema: { querystring: tokenField } }, async (request, reply) => {
    const { token } = request.query as z.infer<typeof tokenField>;
    if (!token || !(await isMailReportToken(deps, token))) return invalidPage(reply);
    const t = await japaneseTexts();
    return sendPage(
      reply,
      200,
      `<p>${escapeHtml(t('mail-report-lead'))}</p>` +
        `<form method="post" action="${MAIL_REPORT_PATH}">` +
        `<input type="hidden" name="token" value="${escapeHtml(token)}">` +
        `<button type="submit" style="font-size:1rem;padding:0.75rem 1.25rem;min-height:44px">` +
        `${escapeHtml(t('mail-report-submit'))}</button></form>`,
    );
  });

  app.post(MAIL_REPORT_PATH, { schema: { body: tokenField } }, async (request, reply) => {
    const { token } = request.body as z.infer<typeof tokenField>;
    const reported = token ? await reportMail(deps, token) : undefined;
    if (!reported) return invalidPage(reply);
    if (reported.firstReport) {
      request.log.warn(
        {
          mailId: reported.mailId,
          letterId: reported.letterId,
          senderUserId: reported.senderUserId,
        },
        'a mail caused by a member was reported by its receiver',
      );
    }
    const t = await japaneseTexts();
    return sendPage(reply, 200, `<p>${escapeHtml(t('mail-report-done'))}</p>`);
  });
}
