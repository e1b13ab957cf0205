import {
  CreateButton,
  Title,
  useResourceContext,
  useResourceDefinition,
  useTranslate,
} from 'react-admin'
import { Alert, AlertTitle, Card, CardContent } from '@mui/material'
import { ACCESS, type Resource } from './access'

/**
 * A page the account's roles open (its menu node) without the list code: no request is made, and
 * the page says what is missing instead of a refused list (a 403 toast, an empty table).
 */
export function NoAccess() {
  const translate = useTranslate()
  const code = ACCESS[useResourceContext() as Resource].list
  const { options, hasCreate } = useResourceDefinition()
  return (
    <Card sx={{ mt: 2 }} data-testid="no-access">
      {options?.label && <Title title={translate(options.label, { _: options.label })} />}
      <CardContent>
        <Alert severity="info">
          <AlertTitle>{translate('app.no_access.title')}</AlertTitle>
          {translate('app.no_access.body', { code })}
        </Alert>
        {/* Its create page may still be held (react-admin hides the button otherwise). */}
        {hasCreate && <CreateButton sx={{ mt: 1 }} />}
      </CardContent>
    </Card>
  )
}
