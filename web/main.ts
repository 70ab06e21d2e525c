/** pcie-scope web UI, the production entry: the page alone (web/app.ts). */
import { startPage } from './app.js'
import { AppState } from './state.js'
import { takeToken } from './token.js'

startPage(new AppState(takeToken(location, history, sessionStorage)))
