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
  captcha: {
    idle: 'Enter your account to load the puzzle',
    working: 'Preparing the puzzle…',
    ready: 'Drag the piece to the gap (or ← →)',
    verifying: 'Checking…',
    verified: 'Verified',
    failed: 'Not quite: try again',
    retry: 'Try again',
    handle: 'Puzzle piece: arrow keys move it 1 px, with Shift 10 px; Enter checks',
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
  },
}

export type LoginText = typeof en

const zh: LoginText = {
  signIn: '登录',
  account: '账号',
  password: '密码',
  captcha: {
    idle: '输入账号后加载拼图',
    working: '正在准备拼图…',
    ready: '拖动拼块到缺口处（或 ← →）',
    verifying: '正在校验…',
    verified: '验证通过',
    failed: '位置不对，请重试',
    retry: '重试',
    handle: '拼块：方向键每次移动 1 像素，按住 Shift 移动 10 像素；回车校验',
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
  },
}

export const LOGIN_TEXT: Record<Locale, LoginText> = { en, zh }

/** The login page's strings in the language it shows (LoginPage.tsx provides them). */
export const LoginTextContext = createContext<LoginText>(en)
export const useLoginText = () => useContext(LoginTextContext)
