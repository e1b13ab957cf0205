import type { components } from '../api-types'

type Schemas = components['schemas']
/** Every value of an API enum, each with its text (a new value fails the typecheck here). */
type Each<T extends string> = Record<T, string>

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
    /** The values of the API's enums as the console shows them (chips, select inputs). */
    choice: {
      article_status: {
        draft: 'draft',
        published: 'published',
        archived: 'archived',
        scheduled: 'scheduled',
      },
      category: {
        news: 'news',
        guide: 'guide',
        release: 'release',
        announcement: 'announcement',
        engineering: 'engineering',
      },
      menu_type: { directory: 'directory', menu: 'menu', button: 'button' },
      data_scope: {
        all: 'all',
        dept_and_children: 'department and below',
        dept: 'department',
        self: 'own records',
        custom: 'custom',
      },
      login_outcome: {
        succeeded: 'succeeded',
        unknown_account: 'unknown account',
        wrong_password: 'wrong password',
        account_disabled: 'account disabled',
        captcha_token_invalid: 'captcha invalid',
        throttled: 'throttled',
        mfa_required: 'second step asked',
        mfa_failed: 'second step failed',
        mfa_token_invalid: 'second step expired',
        recovery_code_used: 'recovery code used',
        device_token_reused: 'device key reused',
        reset_link_sent: 'reset link sent',
        device_link_sent: 'device link sent',
        password_reset: 'password reset',
        device_enrolled: 'browser trusted',
      } satisfies Each<Schemas['LoginLog']['outcome']>,
      audit_outcome: { succeeded: 'succeeded', refused: 'refused' },
      token_status: {
        active: 'active',
        expired: 'expired',
        revoked: 'revoked',
      } satisfies Each<Schemas['OwnApiToken']['status']>,
    },
    /** Help under some form inputs. */
    help: {
      role_code: 'lowercase letters, digits, _ and -',
      menu_path: 'a relative route like users, or an https:// URL',
      menu_component: 'the view, like system/user/index',
      menu_permission: 'buttons: a code like content:article:publish',
      article_slug: 'left empty: made from the title',
      article_cover: 'https:// URL or a site path',
    },
    menus: { top_level: '(top level)' },
    depts: {
      add: 'Add a department',
      none: '(none)',
      delete_confirm: 'Delete "%{name}"?',
      deleted: 'Department deleted',
      filter: 'Department',
      all: 'All departments',
    },
    api_tokens: {
      revoke: 'Revoke',
      revoke_confirm:
        'Revoke the token "%{name}" of %{account}? Scripts using it are refused from now on.',
      revoked: 'Token revoked',
    },
    account: {
      title: 'My account',
      tabs: { profile: 'Profile', two_factor: 'Second factor', tokens: 'API tokens' },
      copy: 'Copy',
      copied: 'Copied to the clipboard',
      copy_failed: 'Select the text and copy it by hand',
    },
    profile: {
      title: 'Profile',
      account: 'Account',
      nickname: 'Nickname',
      email: 'Email',
      saved: 'Profile saved',
      avatar: 'Avatar',
      avatar_help: 'PNG, JPEG, GIF or WebP, at most 2 MB; it is cropped to a 256 px square.',
      avatar_drop: 'Drop an image here, or click to choose one',
      upload: 'Upload',
      uploaded: 'Avatar changed',
      /** Refusals of PUT /api/auth/avatar, by the error's rule (E_VALIDATION_ERROR) or status. */
      avatar_errors: {
        required: 'The file is empty.',
        size: 'The image is larger than 2 MB.',
        image: 'This is not a PNG, JPEG, GIF or WebP image the server can read.',
        dimensions: 'The image has too many pixels (at most 24 megapixels).',
        too_large: 'The upload is too large.',
      },
    },
    second_factor: {
      title: 'Second factor (authenticator app)',
      on: 'On',
      off: 'Off',
      required: 'Your organisation requires a second factor: set it up before you go on.',
      intro:
        'After your password, signing in will also ask for a 6-digit code from an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password, ...).',
      password: 'Current password',
      start: 'Start setup',
      scan: 'Scan this QR code with the app, or type the key below into it.',
      qr_alt: 'QR code for the authenticator app',
      secret: 'Key',
      code: 'Code from the app',
      confirm: 'Turn on',
      recovery_title: 'Recovery codes',
      recovery_help:
        'Each code signs you in once if you lose the phone. They are shown only now: copy or print them and keep them somewhere safe.',
      done: 'I have kept them',
      enabled: 'Second factor turned on',
      disable_help: 'To turn it off, enter your password and a current code or a recovery code.',
      disable_code: 'Code or recovery code',
      disable: 'Turn off',
      disabled: 'Second factor turned off',
    },
    own_tokens: {
      intro:
        'An API token lets a script call the admin API (/api/admin/*) as you, with only the codes you pick and never more than you hold at the time of each call.',
      create: 'New token',
      name: 'Name',
      expires_in_days: 'Expires in (days)',
      codes: 'Permission codes',
      search: 'Find a menu or a code',
      selected: '%{smart_count} code selected |||| %{smart_count} codes selected',
      nothing_found: 'No menu or code matches.',
      submit: 'Create token',
      created: 'Token created',
      shown_once: 'Copy the token now: it is shown only this once.',
      yours: 'Your tokens',
      none: 'No tokens yet.',
      hint: 'Ends with',
      status: 'Status',
      created_at: 'Created',
      expires_at: 'Expires',
      last_used_at: 'Last used',
      revoke: 'Revoke',
      revoke_title: 'Revoke: %{name}',
      revoke_confirm: 'Scripts using this token will be refused from now on.',
      revoked: 'Token revoked',
    },
  },
  resources: {
    'users': {
      page: { create: 'Create user', edit: 'Edit user %{recordRepresentation}' },
      fields: {
        lastLoginAt: 'Last login',
        lockedUntil: 'Locked until',
        roleIds: 'Roles',
        deptId: 'Department',
      },
    },
    'roles': {
      page: { create: 'Create role', edit: 'Edit role %{recordRepresentation}' },
      fields: { isSystem: 'System', dataScope: 'Data scope', deptIds: 'Departments' },
    },
    'menus': {
      page: { create: 'Create menu', edit: 'Edit menu %{recordRepresentation}' },
      fields: { parentId: 'Parent' },
    },
    'depts': {
      page: { create: 'Create department', edit: 'Edit department %{recordRepresentation}' },
      fields: { parentId: 'Parent', dataScope: 'Data scope', deptIds: 'Departments' },
    },
    'tokens': {
      fields: {
        account: 'Owner',
        hint: 'Ends with',
        permissions: 'Permission codes',
        lastUsedAt: 'Last used',
        lastUsedIp: 'Last address',
        expiresAt: 'Expires',
      },
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
