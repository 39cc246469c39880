/**
 * Where a table's camera reads the dice (server/table/camera-setup.ts):
 *
 *   GET    /api/tables/:id/camera/calibration           the calibration in use and where it comes from: CalibrationView
 *   PUT    /api/tables/:id/camera/calibration           { tray, keptZone? } (as in the tables file; null: the whole
 *                                                       image / no kept zone): kept and applied at once: CalibrationView
 *   DELETE /api/tables/:id/camera/calibration           back to the tables file's: CalibrationView
 *   POST   /api/tables/:id/camera/calibration/estimate  the tray found in the latest frame of the empty tray (not kept):
 *                                                       { tray, coverage, fill }
 *
 * Reading the calibration needs nothing; changing it, or finding the tray, needs the table's PIN.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CameraSetupError, type CameraSetup } from '../table/camera-setup.ts';
import type { Table } from '../table/table.ts';
import * as S from './schemas.ts';

type IdParams = { Params: { id: string } };

export interface CameraRouteDeps {
  table(request: FastifyRequest<IdParams>, reply: FastifyReply): Table<any> | null;
  control(t: Table<any>, request: FastifyRequest, reply: FastifyReply): boolean;
  sendError(reply: FastifyReply, status: number, code: string, message: string): FastifyReply;
}

const STATUS_OF: Record<CameraSetupError['code'], number> = { badCalibration: 400, noFrame: 409, noTray: 422 };

export function registerCameraRoutes(app: FastifyInstance, deps: CameraRouteDeps): void {
  const { table, control, sendError } = deps;
  const setupOf = (request: FastifyRequest<IdParams>, reply: FastifyReply, needsPin: boolean): CameraSetup | null => {
    const t = table(request, reply);
    if (!t || (needsPin && !control(t, request, reply))) return null;
    if (!t.cameraSetup) {
      sendError(reply, 409, 'noCamera', 'This table has no camera: dice are typed in.');
      return null;
    }
    return t.cameraSetup;
  };
  const refusal = (request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply => {
    if (err instanceof CameraSetupError) return sendError(reply, STATUS_OF[err.code], err.code, err.message);
    request.log.error({ err }, 'saving the camera calibration failed');
    return sendError(reply, 503, 'storageFailed', 'The calibration could not be saved (database not writable); the camera reads as before.');
  };
  const route = '/api/tables/:id/camera/calibration';

  app.get<IdParams>(route, { schema: { params: S.tableParams, querystring: S.noQuery } }, async (request, reply) => {
    const setup = setupOf(request, reply, false);
    return setup ? setup.view() : reply;
  });

  app.put<IdParams & { Body: { tray: unknown; keptZone?: unknown } }>(
    route,
    { schema: { params: S.tableParams, querystring: S.noQuery, body: S.calibrationBody } },
    async (request, reply) => {
      const setup = setupOf(request, reply, true);
      if (!setup) return reply;
      try {
        const view = setup.save(request.body.tray, request.body.keptZone ?? null);
        request.log.info({ table: request.params.id, tray: view.tray, keptZone: view.keptZone }, 'camera calibration set on the dashboard');
        return view;
      } catch (err) {
        return refusal(request, reply, err);
      }
    },
  );

  app.delete<IdParams>(route, { schema: { params: S.tableParams, querystring: S.noQuery } }, async (request, reply) => {
    const setup = setupOf(request, reply, true);
    if (!setup) return reply;
    try {
      const view = setup.reset();
      request.log.info({ table: request.params.id }, 'camera calibration back to the tables file\'s');
      return view;
    } catch (err) {
      return refusal(request, reply, err);
    }
  });

  app.post<IdParams>(`${route}/estimate`, { schema: { params: S.tableParams, querystring: S.noQuery } }, async (request, reply) => {
    const setup = setupOf(request, reply, true);
    if (!setup) return reply;
    try {
      return await setup.estimate();
    } catch (err) {
      return refusal(request, reply, err);
    }
  });
}
