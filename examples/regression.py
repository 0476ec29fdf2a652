"""Fit a noisy cubic with a small MLP and MSELoss: the shortest complete training program.

    python examples/regression.py

Everything a PyTorch user writes is here -- nn.Sequential, nn.MSELoss, optim.Adam, a
DataLoader, a scheduler, train/eval, no_grad, state_dict -- with ``import autotensor as torch``.
"""
import autotensor as torch
from autotensor import nn

torch.manual_seed(0)
x = torch.linspace(-2, 2, 256).unsqueeze(1)
y = x ** 3 - 2 * x + 0.3 * torch.randn(256, 1)          # the data, made by the program
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=32,
                                     shuffle=True)

model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(),
                      nn.Linear(32, 1))
loss_fn = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=50, gamma=0.3)

for epoch in range(200):
    model.train()
    for xb, yb in loader:
        loss = loss_fn(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    scheduler.step()
    if epoch % 50 == 49:
        model.eval()
        with torch.no_grad():
            full = loss_fn(model(x), y).item()
        print(f"epoch {epoch + 1:3d}  mse {full:.4f}")

with torch.no_grad():
    fit = loss_fn(model(x), x ** 3 - 2 * x).item()
print(f"distance to the true curve (mse): {fit:.4f}  (noise variance 0.09)")
print(model)
