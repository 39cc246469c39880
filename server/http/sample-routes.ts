/**
 * Photos of the players' own dice for measuring (and teaching) the dice reader: a player holds the
 * camera's last settled read, corrects its dice on the dashboard, and saves the photo with those labels
 * into the service's dice-samples folder (server/store/dice-sample-store.ts).
 *
 *   GET  /api/tables/:id/dice-samples                 { folder, saved }
 *   POST /api/tables/:id/dice-samples/hold            the last settled read, held: { hold, width, height, dice, movedAt, imageUrl, folder, saved }
 *   GET  /api/tables/:id/dice-samples/held/:hold      its photo
 *   POST /api/tables/:id/dice-samples  { hold, dice } saves it: { ok, image, dice, cocked, replaced, saved, folder }
 *   DELETE /api/tables/:id/dice-samples/:hold        takes that photo out of the folder again: { ok, removed, saved, folder }
 *   POST /api/tables/:id/dice-samples/evaluate       the running reader scored on the last EVALUATE_LIMIT saved photos (server/vision/evaluate-folder.ts)
 *   GET  /api/tables/:id/dice-samples/archive        the whole folder as one ZIP file, to send on (server/store/dice-sample-archive.ts)
 *
 * Every route but the photo needs the table's PIN.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HeldReads } from '../hardware/camera/held-reads.ts';
import type { DiceReader } from '../hardware/ports.ts';
import { sampleArchive } from '../store/dice-sample-archive.ts';
import type { DiceSampleStore } from '../store/dice-sample-store.ts';
import { zipStream } from '../store/zip-writer.ts';
import { evaluateFolder } from '../vision/evaluate-folder.ts';
import type { Table } from '../table/table.ts';
import { checkSampleDice, SampleError } from '../vision/dice-sample.ts';
import * as S from './schemas.ts';

type IdParams = { Params: { id: string } };
type HeldParams = { Params: { id: string; hold: string } };

/** The most photos one evaluation from the dashboard reads (the most recent; `npm run dice:eval` reads them all). */
export const EVALUATE_LIMIT = 300;

export interface SampleRouteDeps {
  store: DiceSampleStore | null;
  /** the cameras' dice reader when it is running */
  reader(): DiceReader | null;
  table(request: FastifyRequest<IdParams>, reply: FastifyReply): Table<any> | null;
  control(t: Table<any>, request: FastifyRequest, reply: FastifyReply): boolean;
  sendError(reply: FastifyReply, status: number, code: string, message: string): FastifyReply;
}

export function registerSampleRoutes(app: FastifyInstance, deps: SampleRouteDeps): void {
  const { store, table, control, sendError } = deps;
  let evaluating = false;
  const heldByTable = new Map<string, HeldReads>();
  const heldOf = (t: Table<any>) => {
    let held = heldByTable.get(t.id);
    if (!held) heldByTable.set(t.id, (held = new HeldReads()));
    return held;
  };
  const noStore = (reply: FastifyReply) => sendError(reply, 404, 'samplesOff', 'This service keeps no dice photos (it was started without a dice-samples folder).');
  const holdGone = (reply: FastifyReply) =>
    sendError(reply, 404, 'holdGone', 'That photo is no longer held (a table holds its last 4 for 30 minutes): take a new one.');
  /** The table a controlling route acts on, with the folder; null once the refusal is sent. */
  const controlled = (request: FastifyRequest<IdParams>, reply: FastifyReply): { t: Table<any>; store: DiceSampleStore } | null => {
    const t = table(request, reply);
    if (!t || !control(t, request, reply)) return null;
    if (!store) {
      noStore(reply);
      return null;
    }
    return { t, store };
  };

  app.get<IdParams>('/api/tables/:id/dice-samples', { schema: { params: S.tableParams, querystring: S.noQuery } }, async (request, reply) => {
    const c = controlled(request, reply);
    if (!c) return reply;
    return { folder: c.store.dir, saved: await c.store.count() };
  });

  app.post<IdParams>('/api/tables/:id/dice-samples/hold', { schema: { params: S.tableParams, querystring: S.noQuery } }, async (request, reply) => {
    const c = controlled(request, reply);
    if (!c) return reply;
    const { t, store } = c;
    const read = t.lastSettledRead();
    if (!read) return sendError(reply, 409, 'noSettledRead', 'The camera has not read settled dice yet: roll, let the dice come to rest, and try again.');
    const held = heldOf(t).hold(read);
    return {
      hold: held.id,
      at: held.frame.at,
      width: held.width,
      height: held.height,
      dice: held.dice,
      within: held.within ?? null,
      movedAt: held.movedAt ?? null,
      imageUrl: `/api/tables/${encodeURIComponent(t.id)}/dice-samples/held/${held.id}`,
      folder: store.dir,
      saved: await store.count(),
    };
  });

  app.get<HeldParams>('/api/tables/:id/dice-samples/held/:hold', { schema: { params: S.heldParams, querystring: S.frameQuery } }, async (request, reply) => {
    const t = table(request, reply);
    if (!t) return reply;
    const held = heldOf(t).get(request.params.hold);
    if (!held) return holdGone(reply);
    return reply.header('cache-control', 'private, max-age=1800').type(held.frame.mime).send(held.frame.data);
  });

  app.delete<HeldParams>('/api/tables/:id/dice-samples/:hold', { schema: { params: S.heldParams, querystring: S.noQuery } }, async (request, reply) => {
    const c = controlled(request, reply);
    if (!c) return reply;
    const { t, store } = c;
    const held = heldOf(t).get(request.params.hold);
    if (!held) return holdGone(reply);
    try {
      return { ok: true, ...(await store.remove(t.id, held.frame)), folder: store.dir };
    } catch (err) {
      request.log.error({ err, table: t.id }, 'dice photo not removed');
      return sendError(reply, 500, 'sampleNotRemoved', `The photo was not removed: ${(err as Error).message}`);
    }
  });

  app.post<IdParams>('/api/tables/:id/dice-samples/evaluate', { schema: { params: S.tableParams, querystring: S.noQuery } }, async (request, reply) => {
    const c = controlled(request, reply);
    if (!c) return reply;
    const { t, store } = c;
    const reader = deps.reader();
    if (!reader) return sendError(reply, 409, 'visionUnavailable', 'The dice reader is not running on this service (see /api/health); `npm run dice:eval -- --data FOLDER` measures the photos without it.');
    if (evaluating) return sendError(reply, 409, 'evaluationRunning', 'The photos are being measured already: wait for that answer.');
    if ((await store.count()) === 0) return sendError(reply, 409, 'noPhotos', 'No photos saved yet: save a few first.');
    evaluating = true;
    try {
      return { ...(await evaluateFolder(reader, store.dir, EVALUATE_LIMIT)), folder: store.dir, limit: EVALUATE_LIMIT };
    } catch (err) {
      request.log.error({ err, table: t.id }, 'measuring the dice photos failed');
      return sendError(reply, 500, 'evaluationFailed', `The photos could not be measured: ${(err as Error).message}`);
    } finally {
      evaluating = false;
    }
  });

  app.get<IdParams>('/api/tables/:id/dice-samples/archive', { schema: { params: S.tableParams, querystring: S.noQuery } }, async (request, reply) => {
    const c = controlled(request, reply);
    if (!c) return reply;
    const { t, store } = c;
    let archive;
    try {
      const snapshot = await store.snapshot();
      if (snapshot.photos.length === 0) return sendError(reply, 409, 'noPhotos', 'No photos saved yet: save a few first.');
      archive = sampleArchive(snapshot, { at: new Date(), model: deps.reader()?.modelVersion ?? null });
    } catch (err) {
      request.log.error({ err, table: t.id }, 'dice photos not archived');
      return sendError(reply, 500, 'archiveFailed', `The photos could not be put in one file: ${(err as Error).message}`);
    }
    const body = Readable.from(zipStream(archive.entries), { objectMode: false });
    // past the headers an error can only cut the download short: the browser shows it failed, the log says why
    body.on('error', (err) => request.log.error({ err, table: t.id }, 'dice photos archive cut short'));
    return reply
      .type('application/zip')
      .header('content-disposition', `attachment; filename="${archive.folder}.zip"`)
      .header('cache-control', 'no-store')
      .send(body);
  });

  app.post<IdParams & { Body: { hold: string; dice: unknown[] } }>(
    '/api/tables/:id/dice-samples',
    { schema: { params: S.tableParams, querystring: S.noQuery, body: S.sampleBody } },
    async (request, reply) => {
      const c = controlled(request, reply);
      if (!c) return reply;
      const { t, store } = c;
      const held = heldOf(t).get(request.body.hold);
      if (!held) return holdGone(reply);
      let dice;
      try {
        dice = checkSampleDice(request.body.dice, held.width, held.height, held.within);
      } catch (err) {
        if (err instanceof SampleError) return sendError(reply, 400, 'badSample', err.message);
        throw err;
      }
      try {
        const saved = await store.save(t.id, held, dice);
        return reply.code(201).send({ ok: true, ...saved, folder: store.dir });
      } catch (err) {
        request.log.error({ err, table: t.id }, 'dice photo not saved');
        return sendError(reply, 500, 'sampleNotSaved', `The photo was not saved: ${(err as Error).message}`);
      }
    },
  );
}
