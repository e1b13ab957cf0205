import type { HttpContext } from '@adonisjs/core/http'
import { clientOf } from '#core/client'
import { devicesOf, revokeDevice } from '#auth/device_tokens'
import { deviceOfSession } from '#auth/sessions'
import { notFound } from '#exceptions/api_exception'
import { contract } from '#openapi/contract'
import OwnDeviceTransformer, { ownDeviceSchema } from '#transformers/auth/own_device_transformer'

/**
 * /api/auth/devices: the caller's remembered devices (device tokens, the owner's keys through the
 * ceiling: docs/front-door.md); any signed-in administrator, for the own account only.
 */
export default class DevicesController {
  static contract = contract({
    index: { summary: "The caller's remembered devices", list: ownDeviceSchema },
    destroy: {
      summary: 'Revoke one of the own devices',
      description:
        'Its token stops working (a sign-in from it is a new browser again, second factor ' +
        'included) and the sessions it signed in end.',
      status: 204,
      errors: [404],
    },
  })

  async index({ auth, response, serialize }: HttpContext) {
    const guard = auth.use('jwt')
    const current = await deviceOfSession(guard.getSessionIdOrFail())
    const devices = await devicesOf(guard.getUserOrFail().id)
    response.header('Cache-Control', 'no-store')
    return serialize(
      OwnDeviceTransformer.transform(
        devices.map((device) => ({ ...device, current: device.id === current }))
      )
    )
  }

  async destroy(ctx: HttpContext) {
    const user = ctx.auth.use('jwt').getUserOrFail()
    const revocation = {
      reason: 'device_deleted' as const,
      account: user.account,
      ...clientOf(ctx),
    }
    if (!(await revokeDevice(user.id, ctx.params.id, revocation))) throw notFound('deviceNotFound')
    return ctx.response.noContent()
  }
}
