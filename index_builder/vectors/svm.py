"""A linear SVM fitted with scipy: scikit-learn's ``LinearSVC`` model, without its import.

The model is ``LinearSVC``'s default (liblinear's L2-regularised squared hinge, the
intercept a feature of value 1 regularised like the others): it minimises over ``w``
(the intercept last)

    ½‖w‖² + Σᵢ cᵢ · max(0, 1 − yᵢ (xᵢ·w))²

with ``cᵢ = C · sample_weightᵢ · class_weight(yᵢ)``, the classes ``balanced`` as
scikit-learn weighs them: the weights' sum over twice the class's weight. The loss has a
gradient everywhere and a (generalised) Hessian, ``I + 2 Xₐᵀ diag(cₐ) Xₐ`` over the rows
``a`` whose margin is below 1, so a trust-region Newton method with conjugate gradients
(scipy's ``trust-ncg``, liblinear's own primal method is one too) reaches the optimum in
a few steps of sparse products. Importing ``sklearn.svm`` costs 0.4-2.4 s (it pulls in
``scipy.stats``); ``scipy.optimize`` 0.1-0.3 s. ``tests/core/search/test_svm.py`` checks
the weights against ``LinearSVC`` on real paper vectors. BLAS runs on one thread during
a fit (``threadpoolctl``, 2-5 ms; process-wide while it lasts).
"""

from __future__ import annotations

from typing import Any

GTOL = 1e-6
"""Stop when the gradient's norm is below this: weights within 1e-7 of liblinear's."""


def class_costs(labels: Any, weights: Any, c: float) -> Any:
    """Each row's ``cᵢ``: ``c`` times its weight times its class's balanced weight."""
    import numpy as np

    positive = labels > 0
    total = float(weights.sum())
    on, off = float(weights[positive].sum()), float(weights[~positive].sum())
    balance = np.where(positive, total / (2 * on), total / (2 * off))
    return c * weights * balance


SLICE_BELOW = 0.75
"""Below this share of rows paying a loss, the Hessian's products use those rows alone."""


class _Objective:
    """The objective, its gradient and Hessian products over the rows of ``matrix``."""

    def __init__(self, matrix: Any, signs: Any, costs: Any, transposed: Any = None) -> None:
        self.matrix, self.signs, self.costs = matrix, signs, costs
        self._transposed: Any = transposed
        self._at: Any = None
        self._rows: Any = None
        self._rows_t: Any = None
        self._curve: Any = None

    def transposed(self) -> Any:
        """``matrix`` transposed, by rows (made once): ``Xᵀu`` as fast as ``Xv``."""
        if self._transposed is None:
            self._transposed = self.matrix.T.tocsr()
        return self._transposed

    def margins(self, w: Any) -> Any:
        """``1 − yᵢ (xᵢ·w)``, positive where a row pays a loss."""
        return 1.0 - self.signs * (self.matrix @ w[:-1] + w[-1])

    def value_and_gradient(self, w: Any) -> tuple[float, Any]:
        """The objective at ``w`` and its gradient."""
        import numpy as np

        loss = np.maximum(self.margins(w), 0.0)
        value = 0.5 * float(w @ w) + float(self.costs @ (loss * loss))
        pull = -2.0 * self.costs * self.signs * loss
        gradient = w.copy()
        gradient[:-1] += self.transposed() @ pull
        gradient[-1] += pull.sum()
        return value, gradient

    def _curvature(self, w: Any) -> None:
        """The rows with a curvature at ``w`` (those paying a loss), and their costs."""
        active = self.margins(w) > 0
        self._at = w.copy()
        if active.mean() < SLICE_BELOW:
            # Their own matrix, made once per step, spares every CG iteration the rest
            # (at 50,000 papers about half the rows: a fit 0.51 s, not 0.71).
            self._rows = self.matrix[active]
            self._rows_t = self._rows.T
            self._curve = 2.0 * self.costs[active]
        else:  # nearly every row: slicing would cost more than it saves
            self._rows, self._rows_t = self.matrix, self.transposed()
            self._curve = 2.0 * self.costs * active

    def hessian_times(self, w: Any, v: Any) -> Any:
        """The generalised Hessian at ``w`` times ``v``."""
        import numpy as np

        if self._at is None or not np.array_equal(self._at, w):
            self._curvature(w)
        u = self._curve * (self._rows @ v[:-1] + v[-1])
        out = v.copy()
        out[:-1] += self._rows_t @ u
        out[-1] += u.sum()
        return out


def fit(
    matrix: Any,
    labels: Any,
    weights: Any,
    c: float,
    start: Any = None,
    transposed: Any = None,
) -> tuple[Any, float]:
    """``(coef, intercept)`` of the SVM of ``labels`` (1 or 0 per row of ``matrix``).

    ``weights`` are the rows' sample weights, ``c`` the regularisation (``LinearSVC``'s
    ``C``); ``start`` (``coef`` with the intercept appended) is where the search begins,
    a previous fit's weights for a fit of nearly the same rows. ``transposed`` is
    ``matrix`` transposed as a CSR matrix of float64, when the caller has it.
    """
    import numpy as np
    from scipy.optimize import minimize
    from threadpoolctl import threadpool_limits

    x = matrix.astype(np.float64, copy=False)  # float32 rows are converted in every product
    signs = np.where(labels > 0, 1.0, -1.0)
    objective = _Objective(x, signs, class_costs(labels, weights, c), transposed)
    begin = np.zeros(x.shape[1] + 1) if start is None else np.asarray(start, np.float64)
    # OpenBLAS splits a product of 10,000 numbers over two threads, and the fit takes
    # thousands: on two busy cores each waits for a core, and For you took 1-2 s, not 0.3.
    with threadpool_limits(limits=1, user_api="blas"):
        found = minimize(
            objective.value_and_gradient,
            begin,
            jac=True,
            hessp=objective.hessian_times,
            method="trust-ncg",
            options={"gtol": GTOL, "maxiter": 200},
        )
    return found.x[:-1], float(found.x[-1])
