import {
  Create,
  DateField,
  DeleteButton,
  Edit,
  FunctionField,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  required,
  WrapperField,
} from 'react-admin'
import { api } from '../api'
import {
  ActionButton,
  ChoiceChip,
  PromptButton,
  ResourceList,
  RowActions,
  ACTIONS_COLUMN,
  choicesOf,
} from '../components'

const CATEGORIES = choicesOf('category')
// `scheduled` is shown, not stored: a draft with a future publication date.
const STATUSES = choicesOf('article_status').filter((choice) => choice.id !== 'scheduled')

const filters = [
  <TextInput key="keyword" source="keyword" label="app.search" alwaysOn />,
  <SelectInput key="status" source="status" choices={STATUSES} />,
  <SelectInput key="category" source="category" choices={CATEGORIES} />,
]

/** A value for <input type="datetime-local">, an hour from now (local time). */
const inAnHour = () => {
  const date = new Date(Date.now() + 3600_000 - new Date().getTimezoneOffset() * 60_000)
  return date.toISOString().slice(0, 16)
}

export const ArticleList = () => (
  <ResourceList filters={filters}>
    <TextField source="id" />
    <TextField source="title" />
    <FunctionField
      source="category"
      render={(article) => <ChoiceChip group="category" value={article.category} />}
    />
    <FunctionField
      source="status"
      render={(article) => (
        <ChoiceChip
          group="article_status"
          value={article.scheduled ? 'scheduled' : article.status}
        />
      )}
    />
    <DateField source="publishedAt" showTime />
    <TextField source="author.account" label="resources.articles.fields.author" />
    <WrapperField label={ACTIONS_COLUMN} sortable={false}>
      <RowActions>
        <ActionButton
          action="publish"
          label="app.action.publish"
          done="app.action.published"
          show={(article) => article.status !== 'published'}
          run={(article) =>
            api(`admin/articles/${article.id}/publish`, { method: 'POST', body: {} })
          }
        />
        <PromptButton
          action="publish"
          label="app.action.schedule"
          field={{ label: 'app.action.publish_at', type: 'datetime-local', initial: inAnHour() }}
          done="app.action.scheduled"
          show={(article) => article.status !== 'published' || article.scheduled}
          run={(article, at) =>
            api(`admin/articles/${article.id}/publish`, {
              method: 'POST',
              body: { publishedAt: new Date(at).toISOString() },
            })
          }
        />
        <ActionButton
          action="publish"
          label="app.action.unpublish"
          done="app.action.unpublished"
          show={(article) => article.status === 'published'}
          run={(article) => api(`admin/articles/${article.id}/unpublish`, { method: 'POST' })}
        />
        <DeleteButton mutationMode="pessimistic" />
      </RowActions>
    </WrapperField>
  </ResourceList>
)

const ArticleForm = () => (
  <SimpleForm>
    <TextInput source="title" validate={required()} fullWidth />
    <TextInput source="slug" helperText="app.help.article_slug" />
    <SelectInput source="category" choices={CATEGORIES} validate={required()} />
    <TextInput source="summary" multiline fullWidth />
    <TextInput source="content" multiline minRows={6} fullWidth validate={required()} />
    <TextInput source="coverUrl" helperText="app.help.article_cover" />
    <TextInput source="internalNote" multiline fullWidth />
  </SimpleForm>
)

export const ArticleCreate = () => (
  <Create redirect="list">
    <ArticleForm />
  </Create>
)

export const ArticleEdit = () => (
  <Edit mutationMode="pessimistic" redirect="list">
    <ArticleForm />
  </Edit>
)
