import {
  Create,
  DateField,
  DateTimeInput,
  DeleteButton,
  Edit,
  FunctionField,
  Labeled,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  WrapperField,
  required,
  useRecordContext,
  useTranslate,
} from 'react-admin'
import { Box, Chip, Typography } from '@mui/material'
import { ACTIONS_COLUMN, ResourceList, RowActions } from '../components'
import { DictChip, useDictChoices } from '../useDict'

export const NOTICE_LEVEL_DICT = 'sys_notice_level'

const LEVELS = ['info', 'warning', 'critical'].map((id) => ({
  id,
  name: `app.notice_level.${id}`,
}))
const STATUSES = ['draft', 'published'].map((id) => ({ id, name: `app.notice_status.${id}` }))

const LevelInput = (props: { source: string; alwaysOn?: boolean }) => (
  <SelectInput {...props} choices={useDictChoices(NOTICE_LEVEL_DICT, LEVELS)} />
)

const filters = [
  <TextInput key="keyword" source="keyword" label="app.search" alwaysOn />,
  <SelectInput key="status" source="status" choices={STATUSES} />,
  <LevelInput key="level" source="level" />,
]

/** A notice's level as its dictionary's chip (sys_notice_level). */
export const LevelChip = ({ value }: { value: string }) => (
  <DictChip code={NOTICE_LEVEL_DICT} value={value} fallback={`app.notice_level.${value}`} />
)

const StatusChip = ({ notice }: { notice: { status: string; publishedAt: string | null } }) => {
  const translate = useTranslate()
  const scheduled =
    notice.status === 'published' &&
    notice.publishedAt !== null &&
    new Date(notice.publishedAt) > new Date()
  return (
    <Chip
      size="small"
      color={notice.status === 'published' && !scheduled ? 'success' : 'default'}
      label={translate(
        scheduled ? 'app.notice_status.scheduled' : `app.notice_status.${notice.status}`
      )}
    />
  )
}

export const NoticeList = () => (
  <ResourceList filters={filters}>
    <TextField source="id" />
    <TextField source="title" />
    <FunctionField source="level" render={(notice) => <LevelChip value={notice.level} />} />
    <FunctionField source="status" render={(notice) => <StatusChip notice={notice} />} />
    <DateField source="publishedAt" showTime />
    <DateField source="updatedAt" showTime />
    <WrapperField label={ACTIONS_COLUMN} sortable={false}>
      <RowActions>
        <DeleteButton mutationMode="pessimistic" />
      </RowActions>
    </WrapperField>
  </ResourceList>
)

/**
 * The body as the server rendered it when saved (`bodyHtml`: Markdown with raw HTML off, every
 * text escaped, so it is shown as HTML); edits show after saving.
 */
const Preview = () => {
  const notice = useRecordContext()
  const translate = useTranslate()
  if (!notice?.bodyHtml) return null
  return (
    <Labeled label="app.notices_admin.preview" fullWidth>
      <Box>
        <Typography variant="caption" color="text.secondary">
          {translate('app.notices_admin.preview_saved')}
        </Typography>
        <Box
          data-testid="notice-preview"
          sx={{ border: 1, borderColor: 'divider', borderRadius: 1, px: 2, py: 1, maxWidth: 720 }}
          dangerouslySetInnerHTML={{ __html: notice.bodyHtml }}
        />
      </Box>
    </Labeled>
  )
}

const NoticeForm = () => (
  <SimpleForm>
    <TextInput source="title" validate={required()} fullWidth />
    <TextInput
      source="body"
      validate={required()}
      multiline
      minRows={6}
      fullWidth
      helperText="app.notices_admin.body_help"
    />
    <Preview />
    <LevelInput source="level" />
    <SelectInput source="status" choices={STATUSES} defaultValue="draft" />
    <DateTimeInput source="publishedAt" helperText="app.notices_admin.published_at_help" />
  </SimpleForm>
)

export const NoticeCreate = () => (
  <Create redirect="edit">
    <NoticeForm />
  </Create>
)

export const NoticeEdit = () => (
  <Edit mutationMode="pessimistic" redirect={false}>
    <NoticeForm />
  </Edit>
)
