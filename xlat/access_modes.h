/* SPDX-License-Identifier: GPL-2.0-or-later */
XLAT(R_OK)
XLAT(W_OK)
XLAT(X_OK)
