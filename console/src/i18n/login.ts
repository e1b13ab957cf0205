import { createContext, useContext } from 'react'
import type { Locale } from './errors'

/**
 * Every string of the light login page (LoginPage.tsx, the slider captcha, the second step), in
 * the console's languages. Like errors.ts, no react-admin here: the page shows before the admin
 * bundle loads. The language is the one the console keeps (errors.ts), switchable on the page.
 */
const en = {
  signIn: 'Sign in',
  account: 'Account',
  password: 'Password',
  passkeyOffer: 'Sign in with a passkey (and the password)',
  passkeyAlone: 'Sign in with a passkey',
  captcha: {
    idle: 'Enter your account to load the puzzle',
    working: 'Preparing the puzzle…',
    progress: 'Preparing the puzzle: {solved} of {parts}',
    ready: 'Drag the piece to the gap (or ← →)',
    verifying: 'Checking…',
    verified: 'Verified',
    failed: 'Not quite: try again',
    retry: 'Try again',
    handle: 'Puzzle piece: arrow keys move it 1 px, with Shift 10 px; Enter checks',
    unprepared: 'The puzzle could not be prepared: please try again',
  },
  secondStep: {
    title: 'Second step',
    codeHelp: 'Enter the 6-digit code of your authenticator app.',
    recoveryHelp: 'Enter one of the recovery codes you kept when you set up the second factor.',
    code: 'Code',
    recoveryCode: 'Recovery code',
    useRecovery: 'Lost your phone? Use a recovery code',
    useCode: 'Use the authenticator app',
    remember: 'Remember this device',
    submit: 'Verify',
    restart: 'Start again',
    expired: 'This sign-in has expired or too many codes were wrong: sign in again.',
    passkeyHelp: 'Confirm with one of your passkeys.',
    usePasskey: 'Use a passkey',
  },
  mail: {
    forgot: 'Forgot password?',
    forgotTitle: 'Reset your password',
    forgotHelp:
      'Enter your account. If it has a verified email address, a link to choose a new password is mailed to it (valid 15 minutes).',
    deviceOffer: 'Send me a sign-in link for this browser',
    deviceTitle: 'Sign in from this browser',
    deviceHelp:
      'The account is locked for new browsers. If it has a verified email address, a link that lets this browser sign in is mailed to it (valid 15 minutes).',
    send: 'Send the link',
    sent: 'If the account has a verified email address, a mail is on its way. Open its link in this browser.',
    back: 'Back to sign in',
    resetTitle: 'Choose a new password',
    newPassword: 'New password',
    repeat: 'Repeat the new password',
    differ: 'The two passwords differ',
    resetSubmit: 'Set the password',
    resetDone: 'Your password is changed and every session has ended. Sign in with the new one.',
    enrolTitle: 'Trust this browser',
    enrolHelp:
      'This link lets this browser sign in to your account, even while the account is locked for new browsers. Your password, and a second factor if you have one, are still asked.',
    enrolSubmit: 'Trust this browser',
    enrolDone: 'This browser is trusted now: sign in.',
    undoTitle: 'Undo the email change',
    undoHelp:
      'This restores your former email address, ends every session and remembered browser of the account, and removes passkeys added since the change. Choose a new password: someone may know the old one.',
    undoSubmit: 'Undo and set the password',
    undoDone:
      'Your email address is back and your password is changed; every session has ended. Sign in with the new password.',
    signIn: 'Go to sign in',
  },
}

export type LoginText = typeof en

const zh: LoginText = {
  signIn: '登录',
  account: '账号',
  password: '密码',
  passkeyOffer: '使用通行密钥（和密码）登录',
  passkeyAlone: '使用通行密钥登录',
  captcha: {
    idle: '输入账号后加载拼图',
    working: '正在准备拼图…',
    progress: '正在准备拼图：{solved}/{parts}',
    ready: '拖动拼块到缺口处（或 ← →）',
    verifying: '正在校验…',
    verified: '验证通过',
    failed: '位置不对，请重试',
    retry: '重试',
    handle: '拼块：方向键每次移动 1 像素，按住 Shift 移动 10 像素；回车校验',
    unprepared: '拼图未能准备好，请重试',
  },
  secondStep: {
    title: '第二步验证',
    codeHelp: '请输入身份验证器应用中的 6 位验证码。',
    recoveryHelp: '请输入设置双重验证时保存的一个恢复码。',
    code: '验证码',
    recoveryCode: '恢复码',
    useRecovery: '手机丢失？使用恢复码',
    useCode: '使用身份验证器应用',
    remember: '记住此设备',
    submit: '验证',
    restart: '重新开始',
    expired: '本次登录已过期或错误次数过多，请重新登录。',
    passkeyHelp: '请用您的一个通行密钥确认。',
    usePasskey: '使用通行密钥',
  },
  mail: {
    forgot: '忘记密码？',
    forgotTitle: '重置密码',
    forgotHelp:
      '请输入账号。如果该账号有已验证的邮箱，我们会向其发送设置新密码的链接（15 分钟内有效）。',
    deviceOffer: '向我发送此浏览器的登录链接',
    deviceTitle: '在此浏览器登录',
    deviceHelp:
      '该账号已对新浏览器锁定。如果该账号有已验证的邮箱，我们会向其发送允许此浏览器登录的链接（15 分钟内有效）。',
    send: '发送链接',
    sent: '如果该账号有已验证的邮箱，邮件正在发送中。请在此浏览器中打开邮件里的链接。',
    back: '返回登录',
    resetTitle: '设置新密码',
    newPassword: '新密码',
    repeat: '再次输入新密码',
    differ: '两次输入的密码不一致',
    resetSubmit: '设置密码',
    resetDone: '密码已修改，所有会话均已结束。请使用新密码登录。',
    enrolTitle: '信任此浏览器',
    enrolHelp:
      '此链接允许此浏览器登录您的账号，即使账号已对新浏览器锁定。仍需输入密码（以及已启用的双重验证）。',
    enrolSubmit: '信任此浏览器',
    enrolDone: '此浏览器已受信任，请登录。',
    undoTitle: '撤销邮箱修改',
    undoHelp:
      '此操作将恢复您原来的邮箱，结束该账号的所有会话和受信任的浏览器，并移除修改之后添加的通行密钥。请设置新密码：他人可能知道旧密码。',
    undoSubmit: '撤销并设置密码',
    undoDone: '邮箱已恢复，密码已修改，所有会话均已结束。请使用新密码登录。',
    signIn: '前往登录',
  },
}

export const LOGIN_TEXT: Record<Locale, LoginText> = { en, zh }

/** The login page's strings in the language it shows (LoginPage.tsx provides them). */
export const LoginTextContext = createContext<LoginText>(en)
export const useLoginText = () => useContext(LoginTextContext)
