import {
  BooleanField,
  BooleanInput,
  Create,
  DateField,
  DeleteButton,
  Edit,
  FormDataConsumer,
  FunctionField,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  WrapperField,
  required,
  useRecordContext,
  useTranslate,
} from 'react-admin'
import { ACTIONS_COLUMN, ResourceList, RowActions } from '../components'

const TYPES = ['string', 'number', 'boolean', 'json'].map((id) => ({
  id,
  name: `app.params.type.${id}`,
}))

const filters = [
  <TextInput key="keyword" source="keyword" label="app.search" alwaysOn />,
  <SelectInput key="type" source="type" choices={TYPES} />,
]

/** What the server checks on every write (ParamService), said before the request. */
const validNumber = (value: string) =>
  value !== undefined && value !== '' && Number.isFinite(Number(value))
    ? undefined
    : 'app.params.invalid_number'
const validJson = (value: string) => {
  try {
    JSON.parse(value)
    return undefined
  } catch {
    return 'app.params.invalid_json'
  }
}

/**
 * The value's input for the chosen type; the API stores text in every case (`value` is a string),
 * so a boolean is `true`/`false` and a number its decimal text.
 */
const ValueInput = ({ type }: { type: string }) => {
  switch (type) {
    case 'boolean':
      return (
        <BooleanInput
          source="value"
          format={(value: string) => value === 'true'}
          parse={(checked: boolean) => (checked ? 'true' : 'false')}
          defaultValue="false"
        />
      )
    case 'number':
      return <TextInput source="value" type="number" validate={[required(), validNumber]} />
    case 'json':
      return (
        <TextInput
          source="value"
          multiline
          minRows={4}
          fullWidth
          validate={[required(), validJson]}
          sx={{ '& textarea': { fontFamily: 'monospace' } }}
        />
      )
    default:
      return <TextInput source="value" fullWidth multiline parse={(value) => value ?? ''} />
  }
}

const TypeName = ({ type }: { type: string }) => {
  const translate = useTranslate()
  return <>{translate(`app.params.type.${type}`, { _: type })}</>
}

/** A value shown as its type reads (a JSON value in monospace, cut short). */
const valueText = (param: { type: string; value: string }) =>
  param.value.length > 80 ? `${param.value.slice(0, 80)}…` : param.value

export const ParamList = () => (
  <ResourceList filters={filters}>
    <TextField source="id" />
    <TextField source="key" />
    <FunctionField
      source="value"
      render={(param) => (
        <span style={{ fontFamily: param.type === 'json' ? 'monospace' : undefined }}>
          {valueText(param)}
        </span>
      )}
    />
    <FunctionField source="type" render={(param) => <TypeName type={param.type} />} />
    <BooleanField source="isPublic" />
    <BooleanField source="isSystem" />
    <TextField source="remark" />
    <DateField source="updatedAt" showTime />
    <WrapperField label={ACTIONS_COLUMN} sortable={false}>
      <RowActions>
        {/* Hidden by canAccess without the code, and on a system parameter (access.ts). */}
        <DeleteButton mutationMode="pessimistic" />
      </RowActions>
    </WrapperField>
  </ResourceList>
)

/** A system parameter keeps its key (the server answers 409 otherwise). */
const KeyInput = () => {
  const param = useRecordContext()
  return (
    <TextInput
      source="key"
      validate={required()}
      disabled={Boolean(param?.isSystem)}
      helperText={param?.isSystem ? 'app.params.system_key' : 'app.params.key_help'}
    />
  )
}

const ParamForm = () => (
  <SimpleForm>
    <KeyInput />
    <SelectInput source="type" choices={TYPES} defaultValue="string" validate={required()} />
    <FormDataConsumer>
      {({ formData }) => <ValueInput key={formData.type} type={formData.type ?? 'string'} />}
    </FormDataConsumer>
    <BooleanInput source="isPublic" helperText="app.params.public_help" />
    <TextInput source="remark" multiline fullWidth />
  </SimpleForm>
)

export const ParamCreate = () => (
  <Create redirect="list">
    <ParamForm />
  </Create>
)

export const ParamEdit = () => (
  <Edit mutationMode="pessimistic" redirect="list">
    <ParamForm />
  </Edit>
)
