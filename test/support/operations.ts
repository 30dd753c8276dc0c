/** An operation the SDK does not have, for the checks that a generated file goes stale when one is added. */
import { z } from 'zod';
import { defineOperation } from '../../src/core/call/operation.js';

/** `widgets.retrieve`: `GET /api/v1/widgets/{widgetId}`, documented as "One widget.". */
export const addedOperation = defineOperation({
  name: 'widgets.retrieve',
  method: 'GET',
  path: '/api/v1/widgets/{widgetId}',
  response: z.object({ id: z.string() }),
  doc: 'One widget.',
});
