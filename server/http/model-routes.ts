/**
 * The dice model the cameras read with, and teaching it the table's own dice (server/vision/dice-models.ts):
 *
 *   GET    /api/tables/:id/dice-model              which model is read, the base and taught ones, the teaching: DiceModelsStatus
 *   POST   /api/tables/:id/dice-model/teach        teaches the base model the saved dice photos (minutes, in a child process): 202, the status
 *   DELETE /api/tables/:id/dice-model/teach        stops that teaching (nothing written): { stopped, ...status }
 *   PUT    /api/tables/:id/dice-model  { use }     'taught': read with the taught model; 'base': set it aside (kept across restarts)
 *
 * The model is the service's, shared by every table; every route needs a table's PIN.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DiceSampleStore } from '../store/dice-sample-store.ts';
import type { Table } from '../table/table.ts';
import { DiceModelsError, type DiceModels } from '../vision/dice-models.ts';
import * as S from './schemas.ts';

type IdParams = { Params: { id: string } };

export interface ModelRouteDeps {
  models: DiceModels | null;
  store: DiceSampleStore | null;
  table(request: FastifyRequest<IdParams>, reply: FastifyReply): Table<any> | null;
  control(t: Table<any>, request: FastifyRequest, reply: FastifyReply): boolean;
  sendError(reply: FastifyReply, status: number, code: string, message: string): FastifyReply;
}

/** How a refusal of the models is answered: what the players can do about it, or a fault. */
const STATUS_OF: Record<string, number> = { tooFewPhotos: 409, teachingRunning: 409, modelChanging: 409, noTaughtModel: 409, modelUnreadable: 500 };

export function registerModelRoutes(app: FastifyInstance, deps: ModelRouteDeps): void {
  const { table, control, sendError } = deps;
  const controlled = (request: FastifyRequest<IdParams>, reply: FastifyReply): DiceModels | null => {
    const t = table(request, reply);
    if (!t || !control(t, request, reply)) return null;
    if (!deps.models) {
      sendError(reply, 404, 'modelsOff', 'This service does not change its dice model (it was started without a data folder for one).');
      return null;
    }
    return deps.models;
  };
  const refused = (reply: FastifyReply, err: unknown): FastifyReply => {
    if (err instanceof DiceModelsError) return sendError(reply, STATUS_OF[err.code] ?? 409, err.code, err.message);
    throw err;
  };

  app.get<IdParams>('/api/tables/:id/dice-model', { schema: { params: S.tableParams, querystring: S.noQuery } }, async (request, reply) => {
    const models = controlled(request, reply);
    if (!models) return reply;
    return models.status();
  });

  app.post<IdParams>('/api/tables/:id/dice-model/teach', { schema: { params: S.tableParams, querystring: S.noQuery } }, async (request, reply) => {
    const models = controlled(request, reply);
    if (!models) return reply;
    if (!deps.store) return sendError(reply, 404, 'samplesOff', 'This service keeps no dice photos (it was started without a dice-samples folder).');
    try {
      models.teach(await deps.store.count());
    } catch (err) {
      return refused(reply, err);
    }
    request.log.info({ photos: deps.store.dir, model: models.baseDir }, 'teaching the dice model the saved photos');
    return reply.code(202).send(await models.status());
  });

  app.delete<IdParams>('/api/tables/:id/dice-model/teach', { schema: { params: S.tableParams, querystring: S.noQuery } }, async (request, reply) => {
    const models = controlled(request, reply);
    if (!models) return reply;
    const stopped = await models.cancelTeaching();
    return { stopped, ...(await models.status()) };
  });

  app.put<IdParams & { Body: { use: 'taught' | 'base' } }>(
    '/api/tables/:id/dice-model',
    { schema: { params: S.tableParams, querystring: S.noQuery, body: S.diceModelBody } },
    async (request, reply) => {
      const models = controlled(request, reply);
      if (!models) return reply;
      try {
        await models.use(request.body.use);
      } catch (err) {
        return refused(reply, err);
      }
      request.log.info({ use: request.body.use }, 'dice model changed');
      return models.status();
    },
  );
}
