/**
 * The console's own English texts (react-admin's are ra-language-english). Field labels follow
 * react-admin's convention, `resources.<resource>.fields.<source>`; titles of the create and edit
 * pages are singular (`resources.<resource>.page.*`), list titles are the menu's own name.
 */
export const en = {
  app: {
    title: 'Admin console',
    welcome: 'Welcome, %{name}',
    roles: 'Roles: %{roles}',
    none: 'none',
    language: 'Language',
    actions: 'Actions',
    more_actions: 'More actions',
    change_password: 'Change password',
    logout_forget_device: 'Sign out and forget this device',
    notices: 'Notices',
    notices_none: 'No notices',
    notice_mark_read: 'Mark read',
    notice_level: { info: 'Information', warning: 'Warning', critical: 'Critical' },
    notice_status: { draft: 'Draft', published: 'Published', scheduled: 'Scheduled' },
    notices_admin: {
      preview: 'Preview',
      preview_saved: 'As the server rendered the saved body; save to see your changes.',
      body_help: 'Markdown: headings, lists, links, emphasis, code. HTML is shown as text.',
      published_at_help: 'Published with no time: now. A later time schedules the notice.',
    },
    own_notices: {
      title: 'My notices',
      open: 'All my notices',
      unread: '%{smart_count} unread notice |||| %{smart_count} unread notices',
      new: 'New',
    },
    dicts: {
      items: 'Items',
      no_items: 'No items yet',
      add_item: 'Add item',
      edit_item: 'Edit item',
      item_saved: 'Item saved',
      item_deleted: 'Item deleted',
      delete_item: 'Delete item',
      delete_item_confirm: 'Delete the item "%{label}"?',
      code_help: 'lowercase letters, digits and _, starting with a letter; set once',
      code_fixed: 'set when the dictionary was created',
    },
    params: {
      type: { string: 'Text', number: 'Number', boolean: 'Yes/no', json: 'JSON' },
      invalid_number: 'Must be a number',
      invalid_json: 'Must be valid JSON',
      key_help: 'letters, digits, . _ and -, starting with a letter',
      system_key: 'A system parameter keeps its key and cannot be deleted',
      public_help: 'Readable without signing in (GET /api/params/:key)',
    },
    user_import: {
      button: 'Import',
      title: 'Import users',
      intro:
        'Fill in the template (one account a row; roles as codes separated by |) and save it as CSV or XLSX. Check the file first: nothing is written until you import it, and the import is all or nothing. Every account gets a generated password, to be changed at its first sign-in.',
      template: 'Download the template',
      dry_run: 'Check file',
      import: 'Import',
      row: 'Row',
      field: 'Column',
      code: 'Code',
      message: 'Problem',
      check_failed:
        '%{smart_count} problem: fix the file and check it again |||| %{smart_count} problems: fix the file and check it again',
      refused:
        'Nothing was imported: %{smart_count} problem |||| Nothing was imported: %{smart_count} problems',
      check_passed:
        '%{smart_count} row checked: ready to import |||| %{smart_count} rows checked: ready to import',
      imported: '%{smart_count} account imported |||| %{smart_count} accounts imported',
      passwords_once:
        'These initial passwords are shown only now: copy them and hand them over safely. Each account must change its password at its first sign-in.',
      account: 'Account',
      initial_password: 'Initial password',
      copy: 'Copy',
      copy_all: 'Copy all',
      copied: 'Copied',
    },
    sign_in_notice: {
      last: 'Last sign-in: %{at} from %{ip}',
      last_no_ip: 'Last sign-in: %{at}',
      failed:
        '%{smart_count} failed sign-in attempt since then |||| %{smart_count} failed sign-in attempts since then',
      failed_first:
        '%{smart_count} failed sign-in attempt before this one |||| %{smart_count} failed sign-in attempts before this one',
    },
    devices: {
      tab: 'Devices',
      title: 'Your devices',
      intro:
        'The browsers that signed in to your account. Each keeps a key that lets it sign in even while the account is locked for new browsers, and without the second step when you chose "Remember this device". Revoke any you do not recognise or no longer use.',
      none: 'No remembered devices.',
      device: 'Browser',
      current: 'This device',
      unknown_agent: 'Unknown browser',
      last_used: 'Last used',
      ip: 'Address',
      created: 'First signed in',
      expires: 'Expires',
      remembers_second_factor: 'Skips the second step',
      revoke: 'Revoke',
      revoke_title: 'Revoke this device?',
      revoke_confirm:
        'Its key stops working and the sessions it signed in end. A sign-in from it counts as a new browser again.',
      revoke_current_confirm:
        'This is the browser you are using: it is signed out now, and its next sign-in counts as a new browser (second step included).',
      revoked: 'Device revoked',
    },
    no_access: {
      title: 'No access to this list',
      body: 'Your roles open this page but do not include its list permission (%{code}). Ask an administrator to grant it.',
    },
    export: {
      done: 'Export downloaded',
    },
    action: {
      reset_password: 'Reset password',
      new_password: 'New password',
      password_reset: "Password reset: the account's sessions have ended",
      unlock: 'Unlock',
      unlocked: 'Account unlocked',
      force_logout: 'Force logout',
      force_logout_confirm:
        'End this session? Its next request will be sent back to the login page.',
      session_ended: 'Session ended',
      publish: 'Publish',
      published: 'Article published',
      schedule: 'Schedule',
      publish_at: 'Publish at',
      scheduled: 'Article scheduled',
      unpublish: 'Unpublish',
      unpublished: 'Article unpublished',
      add_top_level: 'Add a top-level node',
      add_child: 'Add child',
      menu_delete_confirm: 'Delete "%{name}"?',
      menu_deleted: 'Menu deleted',
    },
    password: {
      current: 'Current password',
      new: 'New password',
      repeat: 'Repeat the new password',
      required: 'Choose your own password before you go on.',
      differ: 'The two new passwords differ',
      changed: 'Password changed: your other sessions have ended',
    },
    email: {
      unverified:
        'This address is not verified yet: only a verified address gets password-reset and sign-in links.',
      verified: 'Verified',
      code: 'Code from the mail',
      verify: 'Verify',
      resend: 'Send a new code',
      resent: 'A new code is on its way',
      done: 'Email address verified',
    },
    menu_tree: 'Menus and buttons',
    search: 'Search',
    status: {
      enabled: 'enabled',
      disabled: 'disabled',
    },
  },
  resources: {
    'users': {
      page: { create: 'Create user', edit: 'Edit user %{recordRepresentation}' },
      fields: {
        lastLoginAt: 'Last login',
        lockedUntil: 'Locked until',
        roleIds: 'Roles',
      },
    },
    'roles': {
      page: { create: 'Create role', edit: 'Edit role %{recordRepresentation}' },
      fields: { isSystem: 'System' },
    },
    'menus': {
      page: { create: 'Create menu', edit: 'Edit menu %{recordRepresentation}' },
      fields: { parentId: 'Parent' },
    },
    'depts': {
      page: { create: 'Create department', edit: 'Edit department %{recordRepresentation}' },
      fields: { parentId: 'Parent', dataScope: 'Data scope', deptIds: 'Departments' },
    },
    'dicts': {
      page: { create: 'Create dictionary', edit: 'Edit dictionary %{recordRepresentation}' },
      fields: {
        items: {
          label: 'Label',
          value: 'Value',
          sort: 'Sort',
          status: 'Status',
          cssClass: 'CSS class',
        },
      },
    },
    'params': {
      page: { create: 'Create parameter', edit: 'Edit parameter %{recordRepresentation}' },
      fields: { isPublic: 'Public', isSystem: 'System', updatedAt: 'Updated' },
    },
    'notices': {
      page: { create: 'Create notice', edit: 'Edit notice %{recordRepresentation}' },
      fields: { body: 'Body (Markdown)', publishedAt: 'Publish time', updatedAt: 'Updated' },
    },
    'articles': {
      page: { create: 'Create article', edit: 'Edit article %{recordRepresentation}' },
      fields: { publishedAt: 'Published at', coverUrl: 'Cover URL', author: 'Author' },
    },
    'sessions': { fields: { ip: 'IP', userAgent: 'User agent', lastSeenAt: 'Last seen' } },
    'login-logs': { fields: { ip: 'IP', createdAt: 'Time', userAgent: 'User agent' } },
    'audit-logs': {
      fields: {
        createdAt: 'Time',
        targetType: 'Target type',
        target: 'Target',
        changes: 'Changes',
      },
    },
  },
}
